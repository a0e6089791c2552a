// Builds small, valid DOCX and PPTX files in tests, so fixtures are readable code rather than binaries.
import path from "node:path";
import PizZip from "pizzip";
import { readCentralDirectory } from "@/lib/templates/zip-reader";

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

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const PART_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const CONTENT_TYPE = "application/vnd.openxmlformats-officedocument";

/** Word's latent styles: what its UI shows for built-in styles a document does not use (376 in Word's normal template). */
export function latentStylesXml(count: number): string {
  let xml = `<w:latentStyles w:defLockedState="0" w:defUIPriority="99" w:defSemiHidden="0" w:defUnhideWhenUsed="0" w:defQFormat="0" w:count="${count}">`;
  for (let i = 0; i < count; i++) {
    xml += `<w:lsdException w:name="${i % 9 === 0 ? `heading ${(i % 8) + 1}` : `Built-in style > ${i}`}" w:semiHidden="1" w:uiPriority="${i % 99}" w:unhideWhenUsed="1"/>`;
  }
  return `${xml}</w:latentStyles>`;
}

/** Word's revision save ids, one per editing session. */
export function rsidsXml(count: number): string {
  let xml = '<w:rsids><w:rsidRoot w:val="00A10001"/>';
  for (let i = 0; i < count; i++) xml += `<w:rsid w:val="${(0xa10001 + i * 37).toString(16).toUpperCase().padStart(8, "0")}"/>`;
  return `${xml}</w:rsids>`;
}

/** Adds a relationship of `owner` (its .rels part made when missing) to the part `name`. */
function addRelationship(zip: PizZip, owner: string, id: string, type: string, name: string): void {
  const relsName = owner.replace(/([^/]+)$/, "_rels/$1.rels");
  const rels =
    zip.file(relsName)?.asText() ?? `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>`;
  const target = path.posix.relative(path.posix.dirname(owner), name);
  zip.file(relsName, rels.replace("</Relationships>", `<Relationship Id="${id}" Type="${PART_TYPE}/${type}" Target="${target}"/></Relationships>`));
}

/** Adds the part `name`, related to `owner`, with its content type (after "application/vnd.openxmlformats-officedocument."). */
function addPart(zip: PizZip, owner: string, name: string, type: string, contentType: string, xml: string, id = `rIdEditing${type}`): void {
  addRelationship(zip, owner, id, type, name);
  const types = zip.file("[Content_Types].xml")!.asText();
  zip.file("[Content_Types].xml", types.replace("</Types>", `<Override PartName="/${name}" ContentType="${CONTENT_TYPE}.${contentType}"/></Types>`));
  zip.file(name, xml);
}

/**
 * The DOCX with the editing data Word saves beside the text: latent styles in its styles (and a styles part
 * when it has none), revision ids in its settings, and a glossary of placeholder texts with its own styles.
 */
export function withWordEditingData(file: Buffer, opts: { latentStyles?: number; rsids?: number; glossaryParts?: number } = {}): Buffer {
  const { latentStyles = 376, rsids = 600, glossaryParts = 12 } = opts;
  const zip = new PizZip(file);
  const latent = latentStylesXml(latentStyles);
  const styles = zip.file("word/styles.xml")?.asText();
  const withLatent = styles
    ? styles.replace(/<w:styles\b[^>]*>(?:<w:docDefaults>[\s\S]*?<\/w:docDefaults>)?/, (head) => head + latent)
    : `${XML_HEAD}<w:styles xmlns:w="${W}"><w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>${latent}</w:styles>`;
  if (styles) zip.file("word/styles.xml", withLatent);
  else addPart(zip, "word/document.xml", "word/styles.xml", "styles", "wordprocessingml.styles+xml", withLatent);
  const settings = `${XML_HEAD}<w:settings xmlns:w="${W}"><w:zoom w:percent="100"/><w:defaultTabStop w:val="720"/><w:characterSpacingControl w:val="doNotCompress"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat>${rsidsXml(rsids)}</w:settings>`;
  const oldSettings = zip.file("word/settings.xml")?.asText();
  if (oldSettings) zip.file("word/settings.xml", oldSettings.replace(/<\/w:settings>\s*$/, `${rsidsXml(rsids)}</w:settings>`));
  else addPart(zip, "word/document.xml", "word/settings.xml", "settings", "wordprocessingml.settings+xml", settings);
  let docParts = "";
  for (let i = 0; i < glossaryParts; i++) {
    docParts +=
      `<w:docPart><w:docPartPr><w:name w:val="DefaultPlaceholder_${i}"/><w:category><w:name w:val="General"/><w:gallery w:val="placeholder"/></w:category>` +
      `<w:types><w:type w:val="bbPlcHdr"/></w:types><w:behaviors><w:behavior w:val="content"/></w:behaviors><w:guid w:val="{${String(i).padStart(8, "0")}-1111-2222-3333-444455556666}"/></w:docPartPr>` +
      `<w:docPartBody><w:p><w:r><w:t>Click or tap here to enter placeholder text ${i}.</w:t></w:r></w:p></w:docPartBody></w:docPart>`;
  }
  // A content control showing the first placeholder, as Word writes one: its text is in the body too.
  const body = zip.file("word/document.xml")!.asText();
  const control =
    '<w:p><w:sdt><w:sdtPr><w:id w:val="7001"/><w:placeholder><w:docPart w:val="DefaultPlaceholder_0"/></w:placeholder><w:showingPlcHdr/></w:sdtPr>' +
    "<w:sdtContent><w:r><w:t>Click or tap here to enter placeholder text 0.</w:t></w:r></w:sdtContent></w:sdt></w:p>";
  // Before the body's own section properties, its last child when it has them.
  const sectPr = body.lastIndexOf("<w:sectPr");
  const at = sectPr > body.lastIndexOf("</w:p>") ? sectPr : body.lastIndexOf("</w:body>");
  if (glossaryParts > 0) zip.file("word/document.xml", body.slice(0, at) + control + body.slice(at));
  addPart(
    zip,
    "word/document.xml",
    "word/glossary/document.xml",
    "glossaryDocument",
    "wordprocessingml.document.glossary+xml",
    `${XML_HEAD}<w:glossaryDocument xmlns:w="${W}"><w:docParts>${docParts}</w:docParts></w:glossaryDocument>`,
  );
  addPart(zip, "word/glossary/document.xml", "word/glossary/styles.xml", "styles", "wordprocessingml.styles+xml", withLatent);
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}

/**
 * One of a house template's styles that the document does not use: paragraph styles based on one
 * another in chains of three, with their linked character styles, and table styles.
 */
export function houseStyleXml(i: number): string {
  const kind = i % 3;
  if (kind === 0) {
    return (
      `<w:style w:type="paragraph" w:customStyle="1" w:styleId="House${i}"><w:name w:val="House ${i}"/><w:basedOn w:val="${i % 9 === 0 ? "Normal" : `House${i - 3}`}"/>` +
      `<w:next w:val="Normal"/><w:link w:val="House${i + 1}"/><w:uiPriority w:val="9"/><w:qFormat/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="60"/>` +
      `<w:ind w:left="${i * 10}"/><w:outlineLvl w:val="${i % 9}"/></w:pPr><w:rPr><w:b/><w:color w:val="1F3864"/><w:sz w:val="${20 + (i % 10)}"/></w:rPr></w:style>`
    );
  }
  if (kind === 1) {
    return `<w:style w:type="character" w:customStyle="1" w:styleId="House${i}"><w:name w:val="House ${i} Char"/><w:link w:val="House${i - 1}"/><w:rPr><w:b/><w:color w:val="1F3864"/></w:rPr></w:style>`;
  }
  return `<w:style w:type="table" w:customStyle="1" w:styleId="House${i}"><w:name w:val="House table ${i}"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="auto"/></w:tblBorders></w:tblPr></w:style>`;
}

/** The DOCX with `count` styles of a house template it does not use, after its own (it must have a styles part). */
export function withHouseStyles(file: Buffer, count = 150): Buffer {
  const zip = new PizZip(file);
  const styles = zip.file("word/styles.xml")!.asText();
  zip.file("word/styles.xml", styles.replace(/<\/w:styles>\s*$/, `${Array.from({ length: count }, (_, i) => houseStyleXml(i)).join("")}</w:styles>`));
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}

/** A list definition of nine levels, as Word writes one for each list pasted into a document. */
export function listDefinitionXml(id: number): string {
  let levels = "";
  for (let l = 0; l < 9; l++) {
    levels +=
      `<w:lvl w:ilvl="${l}"><w:start w:val="1"/><w:numFmt w:val="${l % 2 ? "lowerLetter" : "decimal"}"/><w:lvlText w:val="%${l + 1}."/>` +
      `<w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${720 + l * 360}" w:hanging="360"/></w:pPr></w:lvl>`;
  }
  return `<w:abstractNum w:abstractNumId="${id}"><w:multiLevelType w:val="hybridMultilevel"/>${levels}</w:abstractNum>`;
}

/** The DOCX with `count` list definitions and their instances that nothing in it uses (and a numbering part, when it has none). */
export function withUnusedNumbering(file: Buffer, count = 40): Buffer {
  const zip = new PizZip(file);
  const xml = zip.file("word/numbering.xml")?.asText() ?? `${XML_HEAD}<w:numbering xmlns:w="${W}"></w:numbering>`;
  if (!zip.file("word/numbering.xml")) addPart(zip, "word/document.xml", "word/numbering.xml", "numbering", "wordprocessingml.numbering+xml", xml);
  const definitions = Array.from({ length: count }, (_, i) => listDefinitionXml(900 + i)).join("");
  const instances = Array.from({ length: count }, (_, i) => `<w:num w:numId="${900 + i}"><w:abstractNumId w:val="${900 + i}"/></w:num>`).join("");
  // Definitions come before instances in the part (ECMA-376 Part 1, 17.9.20).
  const firstInstance = xml.search(/<w:num[\s>]/);
  const withDefinitions =
    firstInstance < 0
      ? xml.replace(/<\/w:numbering>\s*$/, `${definitions}</w:numbering>`)
      : xml.slice(0, firstInstance) + definitions + xml.slice(firstInstance);
  zip.file("word/numbering.xml", withDefinitions.replace(/<\/w:numbering>\s*$/, `${instances}</w:numbering>`));
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}

/** Each entry's bytes as stored (still compressed, base64), by name, read with Quire's reader of untrusted packages. */
export function storedEntries(file: Buffer): Map<string, string> {
  return new Map(
    readCentralDirectory(file).map((e) => {
      const at = e.localHeaderOffset;
      const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
      return [e.name, file.subarray(start, start + e.compressedSize).toString("base64")];
    }),
  );
}

/** Every part of a package as text, by name, read by PizZip with its CRC-32 check. */
export function packageTexts(file: Buffer): Map<string, string> {
  const zip = new PizZip(file, { checkCRC32: true } as PizZip.LoadOptions);
  return new Map(
    Object.values(zip.files)
      .filter((f) => !f.dir)
      .map((f) => [f.name, f.asText()]),
  );
}

const PML =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const PML_GROUP =
  '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>';

/** The deck's slide parts, in slide order (ppt/slides/slideN.xml, as PowerPoint names them). */
function slidesOf(zip: PizZip): string[] {
  return Object.keys(zip.files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]));
}

/** A placeholder shape of a notes page (the slide's image, the notes' text box). */
function notesPlaceholder(id: number, type: string, paragraphs: string[]): string {
  const body =
    paragraphs.length === 0
      ? ""
      : `<p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs.map((p) => `<a:p><a:r><a:rPr lang="en-US" dirty="0"/><a:t>${esc(p)}</a:t></a:r></a:p>`).join("")}</p:txBody>`;
  return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${type} ${id}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="${type}" idx="${id}"/></p:nvPr></p:nvSpPr><p:spPr/>${body}</p:sp>`;
}

/** The deck with speaker notes on every slide (a notes master with its own theme, one notes slide each), as PowerPoint saves them. */
export function withSpeakerNotes(file: Buffer, lines = 5): Buffer {
  const zip = new PizZip(file);
  const clrMap =
    '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>';
  const masterName = "ppt/notesMasters/notesMaster1.xml";
  const master = `${XML_HEAD}<p:notesMaster ${PML}><p:cSld><p:spTree>${PML_GROUP}${notesPlaceholder(2, "sldImg", [])}${notesPlaceholder(3, "body", ["Click to edit Master text styles"])}</p:spTree></p:cSld>${clrMap}<p:notesStyle><a:lvl1pPr><a:defRPr sz="1200"/></a:lvl1pPr></p:notesStyle></p:notesMaster>`;
  addPart(zip, "ppt/presentation.xml", masterName, "notesMaster", "presentationml.notesMaster+xml", master, "rIdNotesMaster");
  addPart(zip, masterName, "ppt/theme/theme99.xml", "theme", "theme+xml", zip.file("ppt/theme/theme1.xml")!.asText());
  const presentation = zip.file("ppt/presentation.xml")!.asText();
  zip.file(
    "ppt/presentation.xml",
    presentation.replace("</p:sldMasterIdLst>", '</p:sldMasterIdLst><p:notesMasterIdLst><p:notesMasterId r:id="rIdNotesMaster"/></p:notesMasterIdLst>'),
  );
  slidesOf(zip).forEach((slide, i) => {
    const notes = `ppt/notesSlides/notesSlide${i + 1}.xml`;
    const text = Array.from({ length: lines }, (_, k) => `Speaker note ${k + 1} for slide ${i + 1}: mention the timeline and the budget.`);
    const xml = `${XML_HEAD}<p:notes ${PML}><p:cSld><p:spTree>${PML_GROUP}${notesPlaceholder(2, "sldImg", [])}${notesPlaceholder(3, "body", text)}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:notes>`;
    addPart(zip, slide, notes, "notesSlide", "presentationml.notesSlide+xml", xml, "rIdNotes");
    addRelationship(zip, notes, "rId1", "notesMaster", masterName);
    addRelationship(zip, notes, "rId2", "slide", slide);
  });
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}

/** The deck with review comments on every slide (PowerPoint's comments parts and their authors). */
export function withSlideComments(file: Buffer, perSlide = 4): Buffer {
  const zip = new PizZip(file);
  const authors = `${XML_HEAD}<p:cmAuthorLst ${PML}><p:cmAuthor id="1" name="Alex Reviewer" initials="AR" lastIdx="${perSlide}" clrIdx="0"/></p:cmAuthorLst>`;
  addPart(zip, "ppt/presentation.xml", "ppt/commentAuthors.xml", "commentAuthors", "presentationml.commentAuthors+xml", authors, "rIdAuthors");
  slidesOf(zip).forEach((slide, i) => {
    const comments = Array.from(
      { length: perSlide },
      (_, k) =>
        `<p:cm authorId="1" dt="2026-12-03T10:0${k % 10}:00.000" idx="${k + 1}"><p:pos x="${10 + 40 * k}" y="10"/><p:text>Check this on slide ${i + 1} (${k + 1}).</p:text></p:cm>`,
    ).join("");
    addPart(
      zip,
      slide,
      `ppt/comments/comment${i + 1}.xml`,
      "comments",
      "presentationml.comments+xml",
      `${XML_HEAD}<p:cmLst ${PML}>${comments}</p:cmLst>`,
      "rIdComments",
    );
  });
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}
