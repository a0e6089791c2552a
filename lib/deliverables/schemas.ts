// Request schemas for /v1/deliverable. Types and required fields are checked here (400);
// length limits are field constraints, checked by the domain (422), as docs/contract.md "Error bodies" separates them.
import { z } from "zod";
import { boolParam, intParam, sortOrderParam, uuidListParam } from "@/lib/http/params";
import { DELIVERABLE_SORT_COLUMNS } from "@/lib/deliverables/list";
import { MAX_FONT_NAME, MIME_TYPES, type VariableInput } from "@/lib/deliverables/render/types";

const stackEntry = z
  .object({ text: z.string({ message: "must be a string" }), mimeType: z.enum(MIME_TYPES, { message: `must be one of ${MIME_TYPES.join(", ")}` }) })
  .meta({ id: "VariableStackEntry" });

const baseVariable = z.object({
  placeholder: z.string({ message: "is required (a string such as {Name})" }).min(1, "must not be empty"),
  text: z.string({ message: "must be a string" }).optional(),
  value: z.string({ message: "must be a string" }).optional().meta({
    description:
      "Alias of text. For a placeholder that carries data for paths, loops, conditions and expressions ({client} for {client.address.city}), a JSON string",
  }),
  mimeType: z.enum(MIME_TYPES, { message: `is required: one of ${MIME_TYPES.join(", ")}` }),
  isDisabled: z.boolean({ message: "must be true or false" }).optional(),
  variableStack: z
    .union([z.array(stackEntry), z.record(z.string().regex(/^\d+$/, 'keys must be index strings like "0"'), stackEntry)], {
      message: 'must be an array or an object keyed "0", "1", …',
    })
    .optional(),
  aiPrompt: z.string({ message: "must be a string" }).optional(),
});

function requireText(v: z.infer<typeof baseVariable>, ctx: z.RefinementCtx) {
  if (v.text === undefined && v.value === undefined && v.variableStack === undefined && !v.isDisabled && v.aiPrompt === undefined) {
    ctx.addIssue({ code: "custom", path: ["text"], message: "is required unless variableStack is present or isDisabled is true" });
  }
}

/** One level only: a subvariable with subvariables of its own is refused, not silently dropped. */
const subvariableSchema = baseVariable
  .extend({
    subvariables: z
      .never({ message: "subvariables cannot have subvariables of their own (one level only)" })
      .optional()
      .meta({ description: "Not allowed: a subvariable has no subvariables of its own" }),
  })
  .superRefine(requireText)
  .meta({ id: "Subvariable" });

export const variableSchema = baseVariable
  .extend({ subvariables: z.array(subvariableSchema, { message: "must be an array of variables" }).optional() })
  .superRefine(requireText)
  .meta({ id: "Variable", description: "text is required unless variableStack is present, isDisabled is true or an aiPrompt answers it" });

export const createDeliverableBody = z.object({
  name: z.string({ message: "is required" }),
  templateId: z.string({ message: "is required" }),
  variables: z.array(variableSchema, { message: "is required (an array of variables)" }),
  description: z.string({ message: "must be a string" }).optional(),
  tags: z.array(z.string({ message: "must be a string" }), { message: "must be an array of tag labels" }).optional(),
  // The length and character rules are checkDefaultFont's (lib/deliverables/render); documented here.
  defaultFont: z.string({ message: "must be a string" }).optional().meta({ maxLength: MAX_FONT_NAME }),
});
export type CreateDeliverableBody = z.infer<typeof createDeliverableBody>;

export const updateDeliverableBody = z.object({
  name: z.string({ message: "must be a string" }).optional(),
  description: z.string({ message: "must be a string" }).optional(),
  tags: z.array(z.string({ message: "must be a string" }), { message: "must be an array of tag labels" }).optional(),
});

export const listDeliverablesQuery = z.object({
  limit: intParam(6, 1, 100),
  offset: intParam(0, 0, 10_000_000),
  query: z.string().max(255, "must be at most 255 characters").optional(),
  showTags: boolParam(false),
  selectedTags: uuidListParam,
  column0: z.enum(DELIVERABLE_SORT_COLUMNS, { message: `must be one of ${DELIVERABLE_SORT_COLUMNS.join(", ")}` }).optional(),
  order0: sortOrderParam,
});

export const getDeliverableQuery = z.object({ showTags: boolParam(false) });

// What this schema accepts is what the render engine takes: one VariableInput type, declared there.
type Accepts<T extends VariableInput> = T;
export type ParsedVariable = Accepts<z.output<typeof variableSchema>>;
