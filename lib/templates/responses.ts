// Response shapes of templates, folders and the template listing (docs/contract.md
// "Templates and folders").
import { z } from "zod";
import { timestamp, uuid } from "@/lib/http/response-schemas";
import { tagSchema } from "@/lib/tags/responses";

/** 2.6: one item of GET /template-item. Folder items carry only the folder fields. */
export const templateItemSchema = z
  .object({
    id: uuid,
    name: z.string(),
    type: z.enum(["template", "folder"]),
    isActive: z.boolean(),
    templateFolderId: z.string().nullable().meta({ description: "Parent folder; null at the root" }),
    templateCount: z.number().int(),
    deliverableCount: z.number().int(),
    description: z.string().optional().meta({ description: "Templates only" }),
    createdBy: z.string().optional().meta({ description: "Creator's user id (templates only)" }),
    email: z.string().optional().meta({ description: "Creator's email (templates only)" }),
    fileSize: z.number().int().optional().meta({ description: "Bytes (templates only)" }),
    fileType: z.string().optional().meta({ description: "MIME type (templates only)" }),
    createdOn: timestamp.optional(),
    updatedOn: timestamp.optional(),
    tags: z.array(z.string()).optional().meta({ description: "Tag labels; present when showTags is true (the default)" }),
  })
  .meta({ id: "TemplateItem" });

export const templatePlaceholderSchema = z
  .object({
    placeholder: z.string().meta({ description: "As written in the template, e.g. {@Scope}" }),
    name: z.string().meta({ description: "Without braces and prefix, e.g. Scope" }),
    kind: z.enum(["text", "html", "image", "loop", "condition", "path", "expression"]).meta({
      description:
        "What the tag does: a loop repeats its content for each item of a JSON array; a path ({client.address.city}) or expression ({price * quantity}) reads JSON data",
    }),
    data: z
      .array(z.string())
      .optional()
      .meta({ description: "Top-level data names a path, expression, loop or condition reads: send each as a variable {name} whose value is JSON" }),
    fields: z.array(z.string()).optional().meta({ description: "A loop's fields: what its tags read from each item" }),
    loop: z.string().optional().meta({ description: "The loop this tag sits in" }),
  })
  .meta({ id: "TemplatePlaceholder" });

/** GET /template/{id}, and the upload and update replies. */
export const templateSchema = z
  .object({
    id: uuid,
    name: z.string(),
    description: z.string(),
    type: z.literal("template"),
    isActive: z.boolean(),
    templateFolderId: z.string().nullable(),
    createdBy: z.string(),
    email: z.string(),
    deliverableCount: z.number().int(),
    templateCount: z.number().int(),
    fileSize: z.number().int(),
    fileType: z.string(),
    createdOn: timestamp,
    updatedOn: timestamp,
    folderName: z.string().nullable(),
    variables: z.array(templatePlaceholderSchema).meta({ description: "The placeholders extracted at upload" }),
    tags: z.array(tagSchema),
  })
  .meta({ id: "Template" });

export const templateFolderSchema = z
  .object({
    id: uuid,
    name: z.string(),
    type: z.literal("folder"),
    isActive: z.boolean(),
    templateFolderId: z.string().nullable().meta({ description: "Parent folder; null at the root" }),
    createdBy: z.string(),
    createdOn: timestamp,
    updatedOn: timestamp,
  })
  .meta({ id: "TemplateFolder" });

/** GET /template-folder/{id}: the folder and its path. */
export const templateFolderDetailSchema = templateFolderSchema
  .extend({ path: z.array(z.object({ id: uuid, name: z.string() })).meta({ description: "The folder's ancestors and itself, root first" }) })
  .meta({ id: "TemplateFolderDetail" });

export const templateDeletedSchema = z.object({ message: z.string(), templateId: z.string() });
export const folderDeletedSchema = z.object({ message: z.string(), folderId: z.string() });

export const templateCheckSchema = z
  .object({
    templateId: z.string(),
    findings: z.array(
      z
        .object({
          code: z.enum(["TagNotFilled", "BlankLineLeft", "FontMissing", "FontSubstituted", "ImageTooLarge", "RendersDifferently"]),
          severity: z.enum(["warning", "info"]),
          message: z.string().meta({ description: "What will go wrong and what to do about it" }),
          location: z.string().meta({ description: 'Where: a part and paragraph ("word/document.xml, paragraph 12"), a slide, or "fonts"' }),
        })
        .meta({ id: "TemplateFinding" }),
    ),
    fontsChecked: z.boolean().meta({ description: "false when the converter cannot list its fonts (Gotenberg): fonts were not checked" }),
  })
  .meta({ id: "TemplateCheck" });
