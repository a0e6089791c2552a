// GET /api/outbox: the query it takes and the messages it lists.
import { z } from "zod";
import { intParam } from "@/lib/http/params";
import { timestamp, uuid } from "@/lib/http/response-schemas";

export const listOutboxQuery = z.object({
  to: z.string().max(320).optional().meta({ description: "Only messages to this address (case-insensitive, exact)" }),
  limit: intParam(20, 1, 100),
  offset: intParam(0, 0, 10_000_000),
});

export const outboxMessageSchema = z
  .object({
    id: uuid,
    kind: z.string().meta({ description: "What caused it, e.g. signing_request, passcode, document_completed" }),
    to: z.string(),
    cc: z.array(z.string()),
    from: z.string(),
    replyTo: z.string().nullable(),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    documentId: z.string().nullable(),
    transport: z.string().meta({ description: "How it left: smtp, or outbox when no mail server is configured" }),
    sentAt: timestamp.nullable(),
    error: z.string().nullable(),
    createdOn: timestamp,
  })
  .meta({ id: "OutboxMessage" });
