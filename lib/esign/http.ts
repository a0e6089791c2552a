// Shared body reading for prepare-for-signing and prepare-for-review: multipart (file + text
// fields) or JSON.
import { ValidationError } from "@/lib/errors";
import { readMultipart } from "@/lib/http/multipart";
import { parseJsonBody, parseWith } from "@/lib/http/validation";
import { prepareSchema, type PrepareInput } from "@/lib/esign/schemas";

const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;

export async function readPrepareRequest(req: Request): Promise<{ input: PrepareInput; file?: { name: string; data: Buffer } }> {
  const type = req.headers.get("content-type") ?? "";
  if (type.toLowerCase().startsWith("multipart/form-data")) {
    const { file, fields } = await readMultipart(req, MAX_DOCUMENT_BYTES);
    const raw: Record<string, unknown> = {};
    for (const [k, v] of fields) raw[k] = v.length > 1 ? v : v[0];
    if (file && file.data.length > MAX_DOCUMENT_BYTES) throw new ValidationError("The file is larger than 25 MB", [{ field: "file", message: "too large" }], "DocumentTooLarge");
    return { input: parseWith(prepareSchema, raw), file: file ?? undefined };
  }
  return { input: await parseJsonBody(prepareSchema, req) };
}
