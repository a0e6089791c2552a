// Bulk send (issue 19 item 11): a CSV or a JSON array of signers against a saved layout, one document per
// row. Every row is validated before anything is sent: an invalid row is recorded with its error and
// creates nothing (no document, no email). Valid rows are queued with the id their document will get;
// the background worker (bulk-send-worker.ts) sends them, each exactly once, on any instance.
import crypto from "node:crypto";
import { z } from "zod";
import { invalid } from "@/lib/esign/errors";
import { layoutSource, planLayoutFields } from "@/lib/esign/layouts";
import { checkRecipients } from "@/lib/esign/recipients";
import { recipientSchema, type RecipientInput } from "@/lib/esign/schemas";
import type { Actor, EsignDeps, RequestMeta } from "@/lib/esign/types";
import type { Db } from "@/lib/db/client";
import { NotFoundError, QuireError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { kickBulkSendWorker } from "@/lib/esign/bulk-send-worker";

export const MAX_BULK_ROWS = 500;

export const bulkSendSchema = z
  .object({
    layoutId: z.string({ message: "is required" }),
    rows: z
      .array(z.object({ recipients: z.array(z.unknown()) }), { message: "must be an array of { recipients }" })
      .optional()
      .meta({ description: "One item per document: its recipients, one per role of the layout (by role, or in order)" }),
    csv: z
      .string()
      .max(5_000_000)
      .optional()
      .meta({ description: 'A header row "<role> name,<role> email" for each role of the layout, then one row per document' }),
    sendEmail: z.boolean().optional(),
  })
  .meta({ id: "BulkSendInput", description: "Exactly one of rows and csv" });
export type BulkSendInput = z.infer<typeof bulkSendSchema>;

export const bulkRowSchema = z.object({
  rowNumber: z.number().int(),
  status: z.enum(["invalid", "queued", "sending", "sent", "failed"]),
  error: z.string().nullable(),
  documentId: z.string().nullable(),
  recipients: z.array(z.object({ name: z.string(), email: z.string(), role: z.string().optional() })),
});
export const bulkSendReplySchema = z
  .object({
    id: z.uuid(),
    layoutId: z.uuid(),
    createdAt: z.string(),
    total: z.number().int(),
    counts: z.record(z.string(), z.number().int()).meta({ description: "Rows by status" }),
    done: z.boolean().meta({ description: "No row is queued or sending any more" }),
    finishedAt: z.string().nullable().meta({ description: "When the last row was sent or failed" }),
    rows: z.array(bulkRowSchema),
  })
  .meta({ id: "BulkSend" });
export type BulkSendReply = z.infer<typeof bulkSendReplySchema>;

export class BulkSendNotFoundError extends NotFoundError {
  constructor() {
    super("Bulk send not found", "BulkSendNotFound");
  }
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += c;
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ""));
}

/** The CSV's rows as recipients per row, the columns found from "<role> name" and "<role> email". */
function rowsOfCsv(csv: string, roles: string[]): unknown[][] {
  const [header, ...data] = parseCsv(csv);
  if (!header) throw invalid("The CSV is empty", "BulkSendEmpty", "csv");
  const col = (role: string, what: string) => header.findIndex((h) => h.trim().toLowerCase() === `${role} ${what}`.toLowerCase());
  const columns = roles.map((role) => ({ role, name: col(role, "name"), email: col(role, "email") }));
  const missing = columns.flatMap((c) => [c.name < 0 ? `${c.role} name` : null, c.email < 0 ? `${c.role} email` : null]).filter(Boolean);
  if (missing.length) throw invalid(`The CSV's header row lacks the column(s) ${missing.join(", ")}`, "BulkSendColumnsMissing", "csv");
  return data.map((cells) => columns.map((c) => ({ role: c.role, name: cells[c.name] ?? "", email: (cells[c.email] ?? "").trim() })));
}

/** One row's problem, or null: the same checks prepare-for-signing makes before it writes anything. */
function rowProblem(layout: Parameters<typeof planLayoutFields>[0], raw: unknown[]): { error: string | null; recipients: RecipientInput[] } {
  const parsed = z.array(recipientSchema).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `recipients.${issue.path.join(".")} ${issue.message}`, recipients: [] };
  }
  try {
    checkRecipients(parsed.data);
    planLayoutFields(layout, parsed.data, undefined);
    return { error: null, recipients: parsed.data };
  } catch (err) {
    if (err instanceof QuireError) return { error: err.message, recipients: parsed.data };
    throw err;
  }
}

/** Validates every row, records the batch (invalid rows with their errors, the others queued) and returns its id. */
export async function createBulkSend(deps: EsignDeps, actor: Actor, input: BulkSendInput, meta: RequestMeta): Promise<string> {
  if ((input.rows === undefined) === (input.csv === undefined)) throw invalid("Give exactly one of rows and csv", "BulkSendSourceInvalid", "rows");
  const { layout } = await layoutSource(deps, actor.orgId, input.layoutId);
  const raw = input.csv !== undefined ? rowsOfCsv(input.csv, layout.roles) : input.rows!.map((r) => r.recipients);
  if (raw.length === 0) throw invalid("There are no rows to send", "BulkSendEmpty", input.csv !== undefined ? "csv" : "rows");
  if (raw.length > MAX_BULK_ROWS) throw invalid(`At most ${MAX_BULK_ROWS} rows per bulk send; got ${raw.length}`, "BulkSendTooLarge", "rows");
  const checked = raw.map((r) => rowProblem(layout, r));
  const batch = await deps.db.bulkSend.create({
    data: {
      orgId: actor.orgId,
      layoutId: layout.id,
      sendEmail: input.sendEmail ?? true,
      createdBy: actor.userId,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent ?? null,
      // Nothing to send when every row is invalid.
      ...(checked.every((c) => c.error) ? { status: "done", finishedAt: new Date() } : {}),
      rows: {
        create: checked.map((c, i) => ({
          rowNumber: i + 1,
          recipients: (c.error ? (raw[i] as object[]) : c.recipients) as object[],
          status: c.error ? "invalid" : "queued",
          error: c.error ? `Row ${i + 1}: ${c.error}` : null,
          documentId: c.error ? null : crypto.randomUUID(),
        })),
      },
    },
  });
  kickBulkSendWorker();
  return batch.id;
}

export async function getBulkSend(db: Db, orgId: string, id: string): Promise<BulkSendReply> {
  const batch = isUuid(id) ? await db.bulkSend.findFirst({ where: { id, orgId }, include: { rows: { orderBy: { rowNumber: "asc" } } } }) : null;
  if (!batch) throw new BulkSendNotFoundError();
  const counts: Record<string, number> = {};
  for (const r of batch.rows) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return {
    id: batch.id,
    layoutId: batch.layoutId,
    createdAt: batch.createdOn.toISOString(),
    total: batch.rows.length,
    counts,
    done: batch.status === "done",
    finishedAt: batch.finishedAt?.toISOString() ?? null,
    rows: batch.rows.map((r) => ({
      rowNumber: r.rowNumber,
      status: r.status as BulkSendReply["rows"][number]["status"],
      error: r.error,
      // Chosen in advance (the row's idempotency key), shown once the document exists and is sent.
      documentId: r.status === "sent" ? r.documentId : null,
      recipients: (r.recipients as { name?: unknown; email?: unknown; role?: unknown }[]).map((x) => ({
        name: String(x?.name ?? ""),
        email: String(x?.email ?? ""),
        ...(typeof x?.role === "string" ? { role: x.role } : {}),
      })),
    })),
  };
}
