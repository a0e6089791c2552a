// Public types of the generation engine (see index.ts) and the shapes passed between its stages.
import type { TemplateKind } from "@/lib/templates/inspect";

/** How a variable's text is read. The request schema (lib/deliverables/schemas.ts) enumerates these too. */
export const MIME_TYPES = ["text", "html", "image", "markdown"] as const;
export type MimeType = (typeof MIME_TYPES)[number];

/** The longest defaultFont accepted (checkDefaultFont in index.ts owns the rule; the schema documents it). */
export const MAX_FONT_NAME = 100;

export type VariableStackEntry = { text: string; mimeType: MimeType };

/** A variable of a deliverable request. The request schema (lib/deliverables/schemas.ts) checks its
 *  types; the render plan checks its values against the limits and the template. */
export type VariableInput = {
  placeholder: string;
  text?: string;
  /** Alias of text (docs/contract.md "Deliverables"); JSON for advanced placeholders. */
  value?: string;
  mimeType: MimeType;
  isDisabled?: boolean;
  /** One level only: a subvariable has none of its own. */
  subvariables?: Subvariable[];
  variableStack?: VariableStackEntry[] | Record<string, VariableStackEntry>;
  aiPrompt?: string;
};

export type Subvariable = Omit<VariableInput, "subvariables">;

export interface RenderResult {
  file: Buffer;
  /** Fonts the output uses, by number of text runs, most used first. */
  fonts: { name: string; usage: number }[];
  defaultFont: string;
  /** Template placeholders no variable was given for: rendered empty. */
  missingPlaceholders: string[];
}

export interface RenderOptions {
  defaultFont?: string;
  /** Downloads an https image; the caller applies its SSRF and size rules. */
  fetchImage: (url: string) => Promise<Buffer>;
}

export type { TemplateKind };

/**
 * What one placeholder occurrence renders, after validation: markdown is already HTML, subvariables
 * are already substituted, and images are keys into the prepared-image table.
 */
export type ResolvedValue = { kind: "empty" } | { kind: "text"; text: string } | { kind: "html"; html: string } | { kind: "image"; imageKey: string };

/** An image ready to embed: decoded, sniffed and measured. */
export interface PreparedImage {
  data: Buffer;
  extension: "png" | "jpeg" | "gif";
  /** Natural size in pixels at 96 dpi, EXIF rotation applied. */
  width: number;
  height: number;
}
