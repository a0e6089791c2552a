// Text tags proposed as fields by the dashboard's placer (issue 19 item 10), found in a real PDF with
// the API's anchor search.
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { firstOverlap } from "@/lib/esign/field-overlap";
import { detectTextTags } from "@/lib/esign/text-tags";
import { findAnchors } from "@/lib/pdf/anchors";

async function tagged(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 60, size: 12, font }));
  return Buffer.from(await doc.save());
}

const deps = { findAnchors };

describe("detectTextTags", () => {
  it("turns [[type:role]] and {{type,role}} tags into fields, roles to recipients in order of appearance", async () => {
    const pdf = await tagged([
      "Client: [[sign:client]] on [[date:client]]",
      "Witness: {{signature, witness}}",
      "Initials {{initials,client}} [[check:witness]]",
    ]);
    const { fields, unassigned } = await detectTextTags(deps, pdf, 2);
    expect(unassigned).toEqual([]);
    expect(fields.map((f) => [f.type, f.recipientIndex, f.anchor])).toEqual([
      ["signature", 0, "[[sign:client]]"],
      ["date", 0, "[[date:client]]"],
      ["signature", 1, "{{signature, witness}}"],
      ["initial", 0, "{{initials,client}}"],
      ["checkbox", 1, "[[check:witness]]"],
    ]);
    const sign = fields[0];
    // Placed on the tag (a signature box of the default height, its bottom on the tag's), the tag kept to hide;
    // cut short where the date tag's field starts on the same line, so the proposals can be saved as they are.
    expect(sign).toMatchObject({ page: 1, height: 40, required: true });
    expect(sign.width).toBeLessThan(160);
    expect(sign.x + sign.width).toBeLessThanOrEqual(fields[1].x);
    expect(firstOverlap(fields)).toBeNull();
    expect(sign.anchorRect.y + sign.anchorRect.height).toBeCloseTo(sign.y + sign.height, 3);
    expect(sign.anchorRect.x).toBeCloseTo(sign.x, 3);
    expect(sign.y).toBeGreaterThan(0);
    expect(fields[4].required).toBe(false);
  });

  it("numbered roles go to that recipient first; roles with no recipient left are reported, not placed", async () => {
    const pdf = await tagged(["[[sign:signer2]] [[sign:buyer]] [[sign:agent]]", "[[bogus:client]] [[date:1]]"]);
    const { fields, unassigned } = await detectTextTags(deps, pdf, 2);
    expect(fields.map((f) => [f.type, f.recipientIndex, f.anchor])).toEqual([
      ["signature", 1, "[[sign:signer2]]"],
      ["date", 0, "[[date:1]]"],
    ]);
    expect(unassigned).toEqual(["[[sign:buyer]]", "[[sign:agent]]"]);
    const three = await detectTextTags(deps, pdf, 3);
    expect(three.fields.map((f) => [f.anchor, f.recipientIndex])).toContainEqual(["[[sign:buyer]]", 2]);
    expect(three.unassigned).toEqual(["[[sign:agent]]"]);
    expect(await detectTextTags(deps, await tagged(["No tags here."]), 1)).toEqual({ fields: [], unassigned: [] });
  });
});
