// Builds small, valid DOCX files in tests, so fixtures are readable code rather than binaries.
import PizZip from "pizzip";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Each paragraph is a list of runs; a run is written as its own <w:r>, as Word does when it splits text. */
export function buildDocx(paragraphs: (string | string[])[]): Buffer {
  const body = paragraphs
    .map((p) => `<w:p>${(Array.isArray(p) ? p : [p]).map((run) => `<w:r><w:t xml:space="preserve">${esc(run)}</w:t></w:r>`).join("")}</w:p>`)
    .join("");
  const zip = new PizZip();
  zip.file(
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
  );
  zip.file(
    "_rels/.rels",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    "word/document.xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:sectPr/></w:body></w:document>`,
  );
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}

/** The DOCX with a Word comment on its first paragraph (comments part, range marks, reference run), as Word writes it. */
export function withWordComment(file: Buffer, comment = "Check this clause"): Buffer {
  const zip = new PizZip(file);
  const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
  zip.file(
    "word/comments.xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:comments xmlns:w="${W}"><w:comment w:id="0" w:author="Reviewer" w:date="2024-01-01T00:00:00Z" w:initials="R"><w:p><w:r><w:t>${esc(comment)}</w:t></w:r></w:p></w:comment></w:comments>`,
  );
  const doc = zip.file("word/document.xml")!.asText();
  zip.file(
    "word/document.xml",
    doc
      .replace("<w:p>", '<w:p><w:commentRangeStart w:id="0"/>')
      .replace("</w:p>", '<w:commentRangeEnd w:id="0"/><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="0"/></w:r></w:p>'),
  );
  const rels =
    zip.file("word/_rels/document.xml.rels")?.asText() ??
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
  zip.file(
    "word/_rels/document.xml.rels",
    rels.replace(
      "</Relationships>",
      '<Relationship Id="rIdComments" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="comments.xml"/></Relationships>',
    ),
  );
  zip.file(
    "[Content_Types].xml",
    zip
      .file("[Content_Types].xml")!
      .asText()
      .replace(
        "</Types>",
        '<Override PartName="/word/comments.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/></Types>',
      ),
  );
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}
