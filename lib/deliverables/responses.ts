// Response shapes of /v1/deliverable: list item, single deliverable, create reply.
import { z } from "zod";
import { timestamp, uuid } from "@/lib/http/response-schemas";
import { variableSchema } from "@/lib/deliverables/schemas";
import { tagSchema } from "@/lib/tags/responses";

export const fontSchema = z
  .object({ name: z.string(), usage: z.number().int().meta({ description: "Number of text runs using the font" }) })
  .meta({ id: "Font" });
const fonts = z.array(fontSchema).nullable().meta({ description: "Fonts the generated file uses; null until generated" });
const tags = z.array(tagSchema).optional().meta({ description: "Only with showTags=true" });

const common = {
  id: uuid,
  name: z.string(),
  description: z.string(),
  templateId: z.string().meta({ description: "Template used" }),
  email: z.string().meta({ description: "Creator's email" }),
  fileType: z.string().meta({ description: "MIME type of the generated file" }),
  defaultFont: z.string(),
  fonts,
  isActive: z.boolean().meta({ description: "false once soft-deleted" }),
  createdOn: timestamp,
  updatedOn: timestamp,
};

/** 2.1 */
export const deliverableListItemSchema = z
  .object({ ...common, createdBy: z.string().meta({ description: "Creator's user id" }), fileSize: z.number().int().meta({ description: "Bytes" }), tags })
  .meta({ id: "DeliverableListItem" });

/** 2.2: variables are the ones the deliverable was made with. */
export const deliverableSchema = z
  .object({
    ...common,
    templateName: z.string(),
    templateNotDeleted: z.boolean().meta({ description: "Whether the source template still exists" }),
    variables: z.array(variableSchema),
    tags,
  })
  .meta({ id: "Deliverable" });

/** 2.3 */
export const createdDeliverableSchema = z
  .object({
    id: uuid,
    name: z.string(),
    description: z.string(),
    templateId: z.string(),
    createdBy: z.string(),
    createdOn: timestamp,
    updatedOn: timestamp,
    isActive: z.boolean().meta({ description: "Always true at creation" }),
    defaultFont: z.string().meta({ description: "Empty string when not specified" }),
    fonts,
  })
  .meta({ id: "CreatedDeliverable" });

export const deliverableMessageSchema = z.object({ message: z.string(), deliverableId: z.string() }).meta({ id: "DeliverableMessage" });
