// Multipart uploads: one file plus text fields, with the size limit checked before reading.
import { ValidationError } from "@/lib/errors";

export interface MultipartUpload {
  file: { name: string; data: Buffer } | null;
  /** Text fields; a repeated field keeps every value. */
  fields: Map<string, string[]>;
}

export async function readMultipart(req: Request, maxFileBytes: number): Promise<MultipartUpload> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new ValidationError("Send the upload as multipart/form-data", [{ field: "(body)", message: "expected multipart/form-data" }]);
  }
  const declared = Number(req.headers.get("content-length") ?? 0);
  // Leave room for the other fields and the multipart framing.
  if (declared > maxFileBytes + 1024 * 1024) {
    throw new ValidationError(`The file is larger than the ${Math.round(maxFileBytes / 1024 / 1024)} MB limit`, [{ field: "file", message: "too large" }], "TemplateTooLarge");
  }
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    throw new ValidationError("The multipart body could not be read", [{ field: "(body)", message: "malformed multipart body" }]);
  }
  let file: MultipartUpload["file"] = null;
  const fields = new Map<string, string[]>();
  for (const [key, value] of form.entries()) {
    if (typeof value === "string") fields.set(key, [...(fields.get(key) ?? []), value]);
    else if (key === "file") file = { name: value.name, data: Buffer.from(await value.arrayBuffer()) };
  }
  return { file, fields };
}

/** A list sent either as one JSON array field or as repeated fields. */
export function listField(fields: Map<string, string[]>, name: string): unknown {
  const values = fields.get(name);
  if (!values) return undefined;
  if (values.length === 1) {
    const v = values[0].trim();
    if (v.startsWith("[")) {
      try {
        return JSON.parse(v);
      } catch {
        return v; // reported by the schema as "must be an array"
      }
    }
    return v === "" ? [] : [v];
  }
  return values;
}

export function textField(fields: Map<string, string[]>, name: string): string | undefined {
  return fields.get(name)?.[0];
}
