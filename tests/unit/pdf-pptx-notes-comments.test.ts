// Speaker notes and comments cut out of the copy of a PPTX that LibreOffice converts
// (lib/pdf/pptx-notes-comments.ts). Parts are read back with PizZip (CRC-32 checked) and Quire's reader of
// untrusted packages; relationship parts are generated in every form the format allows.
import fc from "fast-check";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { withoutNotesAndComments, withoutUnprintedRelationships } from "@/lib/pdf/pptx-notes-comments";
import { buildSampleProposalPptx } from "@/lib/templates/samples";
import { packageTexts, storedEntries, withSlideComments, withSpeakerNotes } from "../support/ooxml";
import { writeZip } from "../support/zip";

const OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const STRICT = "http://purl.oclc.org/ooxml/officeDocument/relationships";
const MODERN = "http://schemas.microsoft.com/office/2018/10/relationships";
const RELS = "http://schemas.openxmlformats.org/package/2006/relationships";

const relationship = (id: string, type: string, target: string) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`;
const relsPart = (...relationships: string[]) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${RELS}">${relationships.join("")}</Relationships>`;

describe("a PPTX without its speaker notes and comments", () => {
  it("cuts each slide's relationships to its notes and comments, and the authors', and nothing else", async () => {
    const deck = withSlideComments(withSpeakerNotes(await buildSampleProposalPptx()));
    const copy = Buffer.from(deck);
    const lean = withoutNotesAndComments(deck);
    expect(deck.equals(copy)).toBe(true); // the stored PPTX is left as it was
    const [before, after] = [packageTexts(deck), packageTexts(lean)];
    // Every part is still there (nothing reaches them now); only relationship parts changed.
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const i of [1, 2, 3]) {
      const rels = `ppt/slides/_rels/slide${i}.xml.rels`;
      expect(before.get(rels)).toMatch(/notesSlide.*comments/);
      expect(after.get(rels)).toBe(relsPart(relationship("rId1", `${OFFICE}/slideLayout`, "../slideLayouts/slideLayout1.xml")));
      // The notes slide's own relationships (to its master and its slide) are never read now: left as they were.
      expect(after.get(`ppt/notesSlides/_rels/notesSlide${i}.xml.rels`)).toBe(before.get(`ppt/notesSlides/_rels/notesSlide${i}.xml.rels`));
    }
    const presentation = after.get("ppt/_rels/presentation.xml.rels")!;
    expect(before.get("ppt/_rels/presentation.xml.rels")).toContain("commentAuthors");
    expect(presentation).toBe(before.get("ppt/_rels/presentation.xml.rels")!.replace(/<Relationship [^>]*commentAuthors"[^>]*\/>/, ""));
    expect(presentation).toContain("notesMaster"); // the notes master stays: it costs no measurable time
    // Every other part goes out as the bytes it was, still compressed.
    const [was, is] = [storedEntries(deck), storedEntries(lean)];
    const untouched = [...was.keys()].filter((n) => !/^ppt\/(slides\/)?_rels\/(slide\d+|presentation)\.xml\.rels$/.test(n));
    expect(untouched.length).toBeGreaterThan(20);
    for (const name of untouched) expect(is.get(name), name).toBe(was.get(name));
    // Asked again (the next document of the template), the leaner parts come from what was made the first time.
    expect(withoutNotesAndComments(deck).equals(lean)).toBe(true);
  });

  it("gives back the same buffer when there is nothing to cut, or nothing it can read", async () => {
    const deck = await buildSampleProposalPptx();
    for (const file of [deck, Buffer.from("not a zip at all"), Buffer.alloc(0)]) expect(withoutNotesAndComments(file)).toBe(file);
    // Named like a deck's notes but not a ZIP (a truncated upload): left for the converter to refuse.
    const truncated = withSpeakerNotes(deck).subarray(0, 2000);
    expect(withoutNotesAndComments(truncated)).toBe(truncated);
    // A package whose sizes follow its data (a data descriptor) is not rewritten entry by entry: left whole.
    const rels = Buffer.from(relsPart(relationship("rId9", `${OFFICE}/notesSlide`, "../notesSlides/notesSlide1.xml")));
    const entry = { name: "ppt/slides/_rels/slide1.xml.rels", data: zlib.deflateRawSync(rels), uncompressedSize: rels.length };
    const notes = { name: "ppt/notesSlides/notesSlide1.xml", data: zlib.deflateRawSync("<p:notes/>"), uncompressedSize: 10 };
    const described = writeZip([{ ...entry, flags: 0x8 }, notes]);
    expect(withoutNotesAndComments(described)).toBe(described);
    // The same parts in a package it can rewrite are rewritten.
    const plain = writeZip([entry, notes]);
    const rewritten = storedEntries(withoutNotesAndComments(plain));
    expect(zlib.inflateRawSync(Buffer.from(rewritten.get(entry.name)!, "base64")).toString()).toBe(relsPart());
    expect(rewritten.get(notes.name)).toBe(notes.data.toString("base64"));
  });

  it("keeps modern comments, which a slide names by id, and every relationship of any other type", () => {
    const kept = [
      relationship("rId1", `${OFFICE}/slideLayout`, "../slideLayouts/slideLayout1.xml"),
      relationship("rId2", `${MODERN}/comments`, "../comments/modernComment_100_1.xml"),
      relationship("rId3", `${OFFICE}/notesSlides`, "x.xml"),
      relationship("rId4", `${OFFICE}/image`, "../media/image1.png"),
      relationship("rId5", "http://example.com/notesSlide", "y.xml"),
    ];
    expect(withoutUnprintedRelationships(relsPart(...kept))).toBeNull();
    const cut = relationship("rId6", `${STRICT}/notesSlide`, "../notesSlides/notesSlide1.xml");
    expect(withoutUnprintedRelationships(relsPart(kept[0], cut, ...kept.slice(1)))).toBe(relsPart(...kept));
  });

  it("reads relationship parts in every form XML allows, and leaves alone what it cannot read as text", () => {
    const layout = relationship("rId1", `${OFFICE}/slideLayout`, "../slideLayouts/slideLayout1.xml");
    // Written in one form or another, a relationship to a notes slide goes and the layout's stays.
    const forms = fc.record({
      prefix: fc.constantFrom("", "pr:"),
      quote: fc.constantFrom('"', "'"),
      space: fc.constantFrom(" ", "\n  ", "\t"),
      typeFirst: fc.boolean(),
      closed: fc.boolean(),
      target: fc.constantFrom("../notesSlides/notesSlide1.xml", "../notes/a>b.xml", "../notes/x'y.xml"),
      type: fc.constantFrom(`${OFFICE}/notesSlide`, `${STRICT}/notesSlide`, `${OFFICE}/comments`, `${STRICT}/commentAuthors`),
    });
    fc.assert(
      fc.property(forms, ({ prefix, quote, space, typeFirst, closed, target, type }) => {
        const q = target.includes(quote) ? (quote === '"' ? "'" : '"') : quote;
        const attrs = [`Type=${q}${type}${q}`, `Target=${q}${target}${q}`];
        if (!typeFirst) attrs.reverse();
        const open = `<${prefix}Relationship${space}Id=${q}rId7${q}${space}${attrs.join(space)}`;
        const cut = closed ? `${open}></${prefix}Relationship>` : `${open}${space}/>`;
        const xmlns = prefix ? ` xmlns:pr="${RELS}"` : ` xmlns="${RELS}"`;
        const part = (inner: string) => `<${prefix}Relationships${xmlns}>${inner}</${prefix}Relationships>`;
        expect(withoutUnprintedRelationships(part(`${layout.replace("<Relationship", `<${prefix}Relationship`)}${cut}`))).toBe(
          part(layout.replace("<Relationship", `<${prefix}Relationship`)),
        );
      }),
    );
    // A comment or a CDATA section could hide or fake a tag: such parts are left whole.
    const notes = relationship("rId2", `${OFFICE}/notesSlide`, "../notesSlides/notesSlide1.xml");
    expect(withoutUnprintedRelationships(relsPart(`<!-- ${notes} -->`, layout))).toBeNull();
    expect(withoutUnprintedRelationships(relsPart(layout, notes, "<!-- a note -->"))).toBeNull();
    // A start tag that never ends leaves the part whole.
    expect(withoutUnprintedRelationships(relsPart(layout).replace("</Relationships>", `<Relationship Type="${OFFICE}/notesSlide"`))).toBeNull();
  });
});
