// Shared body reading for prepare-for-signing and prepare-for-review: multipart (file + text
// fields) or JSON.
import { ValidationError } from "@/lib/errors";
import { withMultipart } from "@/lib/http/multipart";
import { parseJsonBody, parseWith } from "@/lib/http/validation";
import { prepareSchema, type PrepareInput } from "@/lib/esign/schemas";
import type { UploadedFile } from "@/lib/uploads/file";

export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;

export const documentTooLarge = () => new ValidationError("The file is larger than 25 MB", [{ field: "file", message: "too large" }], "DocumentTooLarge");

/** Reads the request and runs `use` with it; an uploaded file is a temp file removed afterwards. */
export async function withPrepareRequest<T>(req: Request, use: (input: PrepareInput, file?: UploadedFile) => Promise<T>): Promise<T> {
  const type = req.headers.get("content-type") ?? "";
  if (type.toLowerCase().startsWith("multipart/form-data")) {
    return withMultipart(req, { maxFileBytes: MAX_DOCUMENT_BYTES, tooLarge: documentTooLarge }, async ({ file, fields }) => {
      const raw: Record<string, unknown> = {};
      for (const [k, v] of fields) raw[k] = v.length > 1 ? v : v[0];
      return use(parseWith(prepareSchema, raw), file ?? undefined);
    });
  }
  return use(await parseJsonBody(prepareSchema, req));
}
