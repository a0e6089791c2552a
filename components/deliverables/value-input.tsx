"use client";
// One placeholder's value input on the Generate form, and how the form names and describes it.
import { RichTextEditor } from "./rich-text-editor";

export type Mime = "text" | "html" | "markdown" | "image";

export interface FieldState {
  placeholder: string;
  name: string;
  mimeType: Mime;
  text: string;
  disabled: boolean;
  /** null: a single value; an array: repeat the paragraph (or table row) once per entry. */
  stack: string[] | null;
}

/** The input a placeholder gets, from how the template writes it: {@X} formatted text, {%X} an image, {X} text. */
export function defaultMime(placeholder: string): Mime {
  if (placeholder.startsWith("{@")) return "html";
  if (placeholder.startsWith("{%")) return "image";
  return "text";
}

export const KIND_HINTS: Record<Mime, string> = {
  text: "text",
  html: "formatted text",
  markdown: "formatted text",
  image: "an image: a PNG, JPEG or GIF file, or an https:// link to one",
};

/** A placeholder's name as words: "ClientName" → "Client name", "unit_price" → "Unit price". */
export function readableName(name: string): string {
  const words = name
    .replace(/[_\-.]+/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : name;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export function ValueInput({
  field,
  value,
  onChange,
  id,
  label,
}: {
  field: FieldState;
  value: string;
  onChange: (v: string) => void;
  id: string;
  label: string;
}) {
  if (field.mimeType === "html") return <RichTextEditor id={id} label={label} value={value} onChange={onChange} />;
  if (field.mimeType === "image") {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <input
          id={id}
          aria-label={label}
          type="file"
          accept="image/png,image/jpeg,image/gif"
          onChange={async (e) => e.target.files?.[0] && onChange(await readAsDataUrl(e.target.files[0]))}
          className="text-sm"
        />
        {value.startsWith("data:image/") ? <img src={value} alt="" className="h-12 w-auto rounded border border-slate-200" /> : null}
        <input
          aria-label={`${label} (an https link instead)`}
          placeholder="…or an https:// image URL"
          value={value.startsWith("data:") ? "" : value}
          onChange={(e) => onChange(e.target.value)}
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm"
        />
      </div>
    );
  }
  return (
    <textarea
      id={id}
      aria-label={label}
      rows={field.mimeType === "markdown" ? 4 : 2}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className={`w-full rounded-md border border-slate-300 px-3 py-2 text-sm ${field.mimeType === "markdown" ? "font-mono" : ""}`}
    />
  );
}
