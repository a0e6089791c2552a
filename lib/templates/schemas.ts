// Request schemas of the template area (query strings and JSON bodies).
import { z } from "zod";
import { boolParam, intParam, sortOrderParam, uuidListParam } from "@/lib/http/params";
import { FOLDER_NAME_MAX } from "@/lib/templates/folders";
import { SORT_COLUMNS } from "@/lib/templates/listing";
import { TEMPLATE_DESCRIPTION_MAX, TEMPLATE_NAME_MAX } from "@/lib/templates/templates";

export const listTemplateItemsQuery = z.object({
  limit: intParam(9, 1, 1000),
  offset: intParam(0, 0, 10_000_000),
  query: z.string().max(255, "must be at most 255 characters").optional(),
  selectedTags: uuidListParam,
  column0: z.enum(SORT_COLUMNS, { message: `must be one of ${SORT_COLUMNS.join(", ")}` }).optional(),
  order0: sortOrderParam,
  showTags: boolParam(true),
  type: z.enum(["template"], { message: "must be template" }).optional(),
  folderId: z.uuid({ message: "must be a folder id (UUID)" }).optional(),
});

const name = z.string().trim().min(1, "must not be empty").max(TEMPLATE_NAME_MAX, `must be at most ${TEMPLATE_NAME_MAX} characters`);
const description = z.string().max(TEMPLATE_DESCRIPTION_MAX, `must be at most ${TEMPLATE_DESCRIPTION_MAX} characters`);
const folderRef = z.uuid({ message: "must be a folder id (UUID)" }).nullable();
const tagLabels = z.array(z.string(), { message: "must be an array of tag labels" });

/** Text fields of the multipart upload (the file is checked by the template inspector). */
export const uploadTemplateFields = z.object({
  name: name.optional(),
  description: description.optional(),
  templateFolderId: folderRef.optional(),
  tags: tagLabels.optional(),
});

export const updateTemplateBody = z.strictObject({
  name: name.optional(),
  description: description.optional(),
  templateFolderId: folderRef.optional(),
  tags: tagLabels.optional(),
});

const folderName = z.string().trim().min(1, "must not be empty").max(FOLDER_NAME_MAX, `must be at most ${FOLDER_NAME_MAX} characters`);

export const createFolderBody = z.strictObject({ name: folderName, parentId: folderRef.optional() });
export const updateFolderBody = z.strictObject({ name: folderName.optional(), parentId: folderRef.optional() });
