// Speaker notes and review comments out of the copy of a PPTX that LibreOffice converts. Its PDF export
// prints neither (no notes pages, no comment annotations), yet LibreOffice reads every notes slide and
// comment into the document: for the sample deck with five lines of notes on each of its three slides,
// 8 ms more of a 37 ms conversion; four comments a slide, 3.7 ms (docs/performance.md, 2026-12-03
// (night)). A slide reaches its notes and its comments through relationships that no markup names by id
// (implicit relationships), so the copy's relationship parts go without those: LibreOffice then never
// opens the parts, and every page comes out as it did. The PPTX Quire stores keeps them (ADR 0027).
import type { DeflatedPart } from "@/lib/files/zip-patch";
import { attribute, elementsOf, withLeanerParts, withoutSpans } from "@/lib/pdf/ooxml-parts";

/**
 * The relationship types cut, transitional and strict: a slide's notes slide and comments, the comments'
 * authors. PowerPoint's modern comments (Microsoft's 2018 types) stay: a slide names them by id.
 */
const UNPRINTED = new Set(
  ["http://schemas.openxmlformats.org/officeDocument/2006/relationships/", "http://purl.oclc.org/ooxml/officeDocument/relationships/"].flatMap((base) =>
    ["notesSlide", "comments", "commentAuthors"].map((type) => base + type),
  ),
);

/** Part names sit uncompressed in a ZIP's headers: a deck without these strings has nothing to cut. */
const UNPRINTED_PARTS = ["ppt/notesSlides/", "ppt/comments/"].map((name) => Buffer.from(name, "latin1"));

/** A digest of a relationship part's data -> its leaner data, or null when it has nothing to cut. */
const leanerParts = new Map<string, DeflatedPart | null>();

/** The PPTX without its slides' notes and comments; the same buffer when it has none, or is not a package this can rewrite. */
export function withoutNotesAndComments(pptx: Buffer): Buffer {
  // Most decks have neither: a byte search saves reading the package's directory on every conversion.
  if (!UNPRINTED_PARTS.some((name) => pptx.includes(name))) return pptx;
  return withLeanerParts(pptx, leanerParts, (name) => (name.endsWith(".rels") ? withoutUnprintedRelationships : undefined));
}

/** A relationship part without the relationships to notes and comments, or null when it has none (or markup not read as text). */
export function withoutUnprintedRelationships(xml: string): string | null {
  const relationships = elementsOf(xml, ["Relationship"]);
  if (!relationships) return null;
  const cut = relationships.filter((r) => {
    const type = attribute(r.tag, "Type");
    return type !== undefined && UNPRINTED.has(type);
  });
  return cut.length === 0 ? null : withoutSpans(xml, cut);
}
