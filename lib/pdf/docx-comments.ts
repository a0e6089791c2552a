// Word comments out of a DOCX before it is converted. LibreOffice 7.4 loaded over UNO aborts on a
// document with comments ("Binary URP bridge disposed"), though the command line converts it; and
// the PDF export leaves comments out anyway. So they go: the comment parts, their relationships and
// content types, and the range marks and reference runs in the text. Anything else is untouched.
import PizZip from "pizzip";

const COMMENT_PART = /^word\/comments(Extended|Ids|Extensible)?\.xml$/;
const COMMENT_REL = /<Relationship\b[^>]*Type="[^"]*\/(comments|commentsExtended|commentsIds|commentsExtensible)"[^>]*\/>/g;
const COMMENT_OVERRIDE = /<Override\b[^>]*PartName="\/word\/comments(Extended|Ids|Extensible)?\.xml"[^>]*\/>/g;
const TEXT_PART = /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/;

/** Part names sit uncompressed in a ZIP's headers: a package without this string has no comment part. */
const COMMENT_NAME = Buffer.from("word/comments", "latin1");

export function withoutComments(docx: Buffer): Buffer {
  // Most documents have none: a byte search saves reading the whole package on every conversion.
  if (docx.indexOf(COMMENT_NAME) < 0) return docx;
  let zip: PizZip;
  try {
    zip = new PizZip(docx);
  } catch {
    return docx; // not a ZIP: the converter reports it
  }
  const names = Object.keys(zip.files);
  if (!names.some((n) => COMMENT_PART.test(n))) return docx;
  for (const name of names) {
    if (COMMENT_PART.test(name)) zip.remove(name);
    else if (name.endsWith(".rels")) zip.file(name, zip.file(name)!.asText().replace(COMMENT_REL, ""));
    else if (name === "[Content_Types].xml") zip.file(name, zip.file(name)!.asText().replace(COMMENT_OVERRIDE, ""));
    else if (TEXT_PART.test(name)) {
      const xml = zip.file(name)!.asText();
      zip.file(
        name,
        xml
          .replace(/<w:comment(RangeStart|RangeEnd)\b[^>]*\/>/g, "")
          .replace(/<w:r>(?:<w:rPr>(?:(?!<\/w:rPr>)[\s\S])*<\/w:rPr>)?<w:commentReference\b[^>]*\/><\/w:r>/g, "")
          .replace(/<w:commentReference\b[^>]*\/>/g, ""),
      );
    }
  }
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}
