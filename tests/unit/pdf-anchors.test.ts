import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { findAnchors } from "@/lib/pdf/anchors";

async function pdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText("Cover page only", { x: 50, y: 780, size: 12, font });
  const p2 = doc.addPage([595, 842]);
  p2.drawText("Client signature: [[sign:client]]", { x: 50, y: 300, size: 12, font });
  // The same anchor split into two text runs on one line, as word processors often emit.
  p2.drawText("Provider: [[sign:", { x: 50, y: 200, size: 12, font });
  p2.drawText("provider]]", { x: 50 + font.widthOfTextAtSize("Provider: [[sign:", 12), y: 200, size: 12, font });
  p2.drawText("Date [[DATE:client]] and again [[date:client]]", { x: 50, y: 100, size: 12, font });
  return Buffer.from(await doc.save());
}

describe("findAnchors", () => {
  it("finds an anchor with its page and a box from the top-left", async () => {
    const [[hit]] = await findAnchors(await pdf(), [{ anchor: "[[sign:client]]" }]);
    expect(hit.page).toBe(2);
    // "Client signature: " is 90 pt wide in Helvetica 12 pt, so the anchor starts at x = 140.
    expect(hit.x).toBeGreaterThan(136);
    expect(hit.x).toBeLessThan(144);
    // Baseline at 300 from the bottom of an 842 pt page: about 542 from the top.
    expect(hit.y).toBeGreaterThan(525);
    expect(hit.y).toBeLessThan(545);
    expect(hit.width).toBeGreaterThan(60);
  });

  it("joins text runs on one line, honours case, regex, size, placement and offset", async () => {
    const file = await pdf();
    const [[split]] = await findAnchors(file, [{ anchor: "[[sign:provider]]" }]);
    expect(split.page).toBe(2);
    const [insensitive, sensitive] = await findAnchors(file, [{ anchor: "[[date:client]]" }, { anchor: "[[date:client]]", caseSensitive: true }]);
    expect(insensitive).toHaveLength(2);
    expect(sensitive).toHaveLength(1);
    const [[regex]] = await findAnchors(file, [{ anchor: "\\[\\[sign:cl\\w+\\]\\]", useRegex: true }]);
    expect(regex.page).toBe(2);
    const [[base], [below], [after]] = await findAnchors(file, [
      { anchor: "[[sign:client]]", size: { width: 160, height: 40 } },
      { anchor: "[[sign:client]]", placement: "below", size: { width: 160, height: 40 }, offset: { x: 5, y: 2 } },
      { anchor: "[[sign:client]]", placement: "after" },
    ]);
    expect(base).toMatchObject({ width: 160, height: 40 });
    expect(below.y).toBeGreaterThan(base.y + 40);
    expect(below.x).toBeCloseTo(base.x + 5, 1);
    expect(after.x).toBeGreaterThan(base.x + 60);
  });

  it("names every anchor that is missing, and rejects a broken regex", async () => {
    const file = await pdf();
    await expect(findAnchors(file, [{ anchor: "[[nowhere]]" }, { anchor: "[[sign:client]]" }, { anchor: "[[gone]]" }])).rejects.toThrow(
      /\[\[nowhere\]\], \[\[gone\]\]/,
    );
    await expect(findAnchors(file, [{ anchor: "([", useRegex: true }])).rejects.toMatchObject({ code: "InvalidAnchorRegex" });
  });
});
