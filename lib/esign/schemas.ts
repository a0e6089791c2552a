// Request schemas of the signing API (docs/contract.md "Signing documents"). Multipart and JSON bodies
// both arrive here: list fields may come as arrays or as JSON strings of arrays.
import { z } from "zod";
import { DOCUMENT_STATUSES } from "@/lib/esign/responses";
import { LANGUAGES } from "@/lib/i18n";

export const FIELD_TYPES = ["signature", "initial", "date", "text", "full_name", "title", "company", "first_name", "last_name", "email", "checkbox"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/**
 * A placed field's kind and box, in PDF points from the page's top-left corner: the visual placer's fields
 * (draft-fields.ts) and a saved layout's (layouts.ts) take the same.
 */
export const placedBoxShape = {
  type: z.enum(FIELD_TYPES, { message: `must be one of ${FIELD_TYPES.join(", ")}` }),
  page: z.number().int().min(1),
  x: z.number().min(0),
  y: z.number().min(0),
  width: z.number().min(4).max(2000),
  height: z.number().min(4).max(2000),
};
export type PlacedBox = { type: FieldType; page: number; x: number; y: number; width: number; height: number };

/** The box of a stored field row (its type a string in the database, one of FIELD_TYPES by the schema above). */
export function placedBox(f: { type: string; page: number; x: number; y: number; width: number; height: number }): PlacedBox {
  return { type: f.type as FieldType, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height };
}

export const PLACEMENTS = ["replace", "before", "after", "above", "below"] as const;

/** Accepts an array, or a JSON string holding one (multipart form fields are strings). */
function jsonArray<T extends z.ZodType>(item: T, what: string) {
  return z.preprocess(
    (v) => {
      if (typeof v !== "string") return v;
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    },
    z.array(item, { message: `must be an array of ${what} (or a JSON string of one)` }),
  );
}

/**
 * The identityVerification block of 2.9, for the API document only: lib/esign/identity.ts checks
 * the block itself so that each problem gets its own 7.4 code.
 */
export const identityVerificationDoc = z
  .discriminatedUnion("mode", [
    z.object({
      mode: z.literal("otp"),
      channel: z.enum(["email", "sms"]).optional().meta({ description: "Omit to take the organization default (email when that default is none)" }),
    }),
    z.object({ mode: z.literal("external_idv"), provider: z.string().min(1), maxAgeMinutes: z.number().int().min(1).max(525_600).optional() }),
    z.object({
      mode: z.literal("override"),
      overrideIdentityVerification: z.literal(true).meta({ description: "Must be true to acknowledge" }),
      reason: z.string().max(1000).optional(),
    }),
  ])
  .meta({ id: "IdentityVerification", description: "Omit to take the organization default" });

export const recipientSchema = z
  .object({
    name: z.string({ message: "is required" }).trim().min(1, "must not be empty").max(255),
    email: z.email({ message: "must be an email address" }).max(320),
    signingOrder: z.number({ message: "must be a whole number" }).int().min(1).max(1000).optional(),
    phone: z.string().max(32).optional(),
    externalId: z.string().trim().min(1).max(255).optional(),
    role: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "With layoutId: the layout's role this recipient takes (else recipients take the roles in order)" }),
    // Checked by lib/esign/identity.ts, which names each problem with its own 7.4 code.
    identityVerification: z
      .unknown()
      .optional()
      .meta({ override: { $ref: "#/components/schemas/IdentityVerification" } }),
  })
  .meta({ id: "SigningRecipientInput" });
export type RecipientInput = z.infer<typeof recipientSchema>;

export const fieldSchema = z
  .object({
    type: z.enum(FIELD_TYPES, { message: `must be one of ${FIELD_TYPES.join(", ")}` }),
    recipientEmail: z.email().optional(),
    recipientExternalId: z.string().optional(),
    page: z.number().int().min(1).optional(),
    x: z.number().min(0).optional(),
    y: z.number().min(0).optional(),
    width: z.number().positive().optional(),
    height: z.number().positive().optional(),
    template: z
      .object({
        anchor: z.string().min(1).optional(),
        searchText: z.string().min(1).optional(),
        placement: z.enum(PLACEMENTS).optional(),
        size: z.object({ width: z.number().positive(), height: z.number().positive() }).optional(),
        offset: z.object({ x: z.number(), y: z.number() }).optional(),
        caseSensitive: z.boolean().optional(),
        useRegex: z.boolean().optional(),
      })
      .optional(),
    required: z.boolean().optional(),
    defaultValue: z.string().max(10_000).optional(),
    isReadonly: z.boolean().optional(),
    isMultiline: z.boolean().optional(),
  })
  .superRefine((f, ctx) => {
    if (!f.recipientEmail && !f.recipientExternalId)
      ctx.addIssue({ code: "custom", path: ["recipientEmail"], message: "recipientEmail or recipientExternalId is required" });
    const coords = [f.page, f.x, f.y, f.width, f.height];
    const hasCoords = coords.every((v) => v !== undefined);
    const hasAnchor = Boolean(f.template?.anchor ?? f.template?.searchText);
    if (!hasCoords && !hasAnchor)
      ctx.addIssue({ code: "custom", path: ["template"], message: "give page, x, y, width and height, or a template anchor/searchText" });
  })
  .meta({ id: "SigningField", description: "On coordinates (page, x, y, width, height in PDF points from the top-left) or on a text anchor (template)" });
export type FieldInput = z.infer<typeof fieldSchema>;

const booleanish = z.preprocess(
  (v) => (typeof v === "string" && /^true$/i.test(v) ? true : typeof v === "string" && /^false$/i.test(v) ? false : v),
  z.boolean({ message: "must be true or false" }),
);

export const prepareSchema = z.object({
  recipients: jsonArray(recipientSchema, "recipients").refine((r) => r.length > 0, "at least one recipient is required"),
  fields: jsonArray(fieldSchema, "fields").optional(),
  documentName: z.string().trim().min(1).max(255).optional(),
  documentDescription: z.string().max(65_535).optional(),
  senderName: z.string().max(255).optional(),
  senderEmail: z.email().optional(),
  ccEmails: jsonArray(z.email(), "email addresses").optional(),
  fileLink: z.string().optional(),
  templateId: z.string().optional(),
  deliverableId: z.string().optional(),
  layoutId: z.string().optional().meta({ description: "A saved layout (POST /esign/layouts): its PDF and fields; recipients fill its roles" }),
  sendEmail: booleanish.optional(),
  language: z
    .enum(LANGUAGES, { message: `must be one of ${LANGUAGES.join(", ")}` })
    .optional()
    .meta({
      description: "The signing page's, its emails' and passcodes' language; the organization's default language when omitted. The signer can switch the page.",
    }),
  returnUrl: z.string().optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  emailSubject: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(255)
    // A line break in a subject would start another mail header.
    .refine((v) => !/[\r\n]/.test(v), "must be one line")
    .optional()
    .meta({ description: "Subject of the signing-link emails (reminders prefix it with “Reminder:”); default: “<sender> asks you to sign …”" }),
  emailMessage: z
    .string()
    .trim()
    .max(5000)
    // Multipart bodies carry line breaks as CRLF: keep one kind.
    .transform((v) => v.replace(/\r\n?/g, "\n"))
    .optional()
    .meta({ description: "A message from the sender in the signing-link emails and reminders, shown as plain text" }),
  reminderDays: z
    .preprocess(
      (v) => (typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v),
      z.number({ message: "must be a whole number of days" }).int("must be a whole number of days").min(0).max(365),
    )
    .optional()
    .meta({ description: "Email each signer whose turn it is a reminder every N days until they sign (0: never); default: the organization's setting" }),
  /** A pipeline or integration sending: exempt from the organization's default passcode. */
  automated: booleanish.optional(),
});
export type PrepareInput = z.infer<typeof prepareSchema>;

export const voidSchema = z.object({ reason: z.string().trim().min(1, "is required").max(1000) });
export const resendSchema = z.object({ recipientIds: z.array(z.uuid()).optional() });

export const signingUrlSchema = z.strictObject(
  {
    recipientId: z.string().optional(),
    externalId: z.string().optional(),
    returnUrl: z.string().optional(),
    identityAssertion: z.string().max(16_384).optional(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined) },
);

export const listDocumentsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  query: z.string().max(255).optional(),
});
