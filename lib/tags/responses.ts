// Response shapes of tags.
import { z } from "zod";
import { timestamp, uuid } from "@/lib/http/response-schemas";

export const tagSchema = z
  .object({
    id: uuid,
    label: z.string(),
    isActive: z.boolean(),
    updatedOn: timestamp,
    createdOn: timestamp,
    createdBy: z.string().meta({ description: "User id of the creator" }),
    orgId: z.string(),
  })
  .meta({ id: "Tag" });
