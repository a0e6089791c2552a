// The copy of a document that LibreOffice is given, by either converter (the local pool, Gotenberg's):
// the same for both, so both make the same PDF of it. The file Quire stores is the one it was given.
import type { ConvertibleKind } from "@/lib/pdf/converter-types";
import { withoutComments } from "@/lib/pdf/docx-comments";
import { withoutEditingData } from "@/lib/pdf/docx-editing-data";
import { withoutUnusedNumbering } from "@/lib/pdf/docx-unused-numbering";
import { withoutUnusedStyles } from "@/lib/pdf/docx-unused-styles";
import { withoutNotesAndComments } from "@/lib/pdf/pptx-notes-comments";

/**
 * Without Word comments (docx-comments.ts), Word's editing data (docx-editing-data.ts), unused styles
 * (docx-unused-styles.ts) and then the list numbering nothing uses, the styles left included
 * (docx-unused-numbering.ts).
 */
export function docxForConversion(docx: Buffer): Buffer {
  return withoutUnusedNumbering(withoutUnusedStyles(withoutEditingData(withoutComments(docx))));
}

/** A DOCX as above; a PPTX without its speaker notes and comments (pptx-notes-comments.ts). */
export function forConversion(input: Buffer, kind: ConvertibleKind): Buffer {
  return kind === "docx" ? docxForConversion(input) : withoutNotesAndComments(input);
}
