// The copy of a DOCX that LibreOffice is given, by either converter (the local pool, Gotenberg's): the
// same for both, so both make the same PDF of it. The DOCX Quire stores is the one it was given.
import { withoutComments } from "@/lib/pdf/docx-comments";
import { withoutEditingData } from "@/lib/pdf/docx-editing-data";
import { withoutUnusedNumbering } from "@/lib/pdf/docx-unused-numbering";
import { withoutUnusedStyles } from "@/lib/pdf/docx-unused-styles";

/**
 * Without Word comments (docx-comments.ts), Word's editing data (docx-editing-data.ts), unused styles
 * (docx-unused-styles.ts) and then the list numbering nothing uses, the styles left included
 * (docx-unused-numbering.ts).
 */
export function docxForConversion(docx: Buffer): Buffer {
  return withoutUnusedNumbering(withoutUnusedStyles(withoutEditingData(withoutComments(docx))));
}
