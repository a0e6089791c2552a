// The template doctor on templates made to trigger each finding, and on a clean one (no findings).
import PizZip from "pizzip";
import { describe, expect, it } from "vitest";
import { checkTemplate, IMAGE_LIMITS, type TemplateFinding } from "@/lib/templates/doctor";
import { buildSampleInvoiceDocx } from "@/lib/templates/samples";
import { docx, para, png, withParts } from "./render-fixtures";

// Times New Roman is what a DOCX without styles or theme falls back to.
const FONTS = ["Liberation Sans", "Liberation Serif", "Carlito", "DejaVu Sans", "Georgia", "Calibri", "Times New Roman"];
const check = (file: Buffer, fonts: string[] | null = FONTS) => checkTemplate(file, "docx", { fonts });
const codes = (findings: TemplateFinding[]) => findings.map((f) => f.code);

const withBinary = (file: Buffer, path: string, data: Buffer) => {
  const zip = new PizZip(file);
  zip.file(path, data);
  return zip.generate({ type: "nodebuffer" });
};

describe("template doctor", () => {
  it("finds nothing in a clean template (the sample invoice)", async () => {
    expect(check(await buildSampleInvoiceDocx())).toEqual([]);
  });

  it("reports a tag in a comment, which Quire does not fill", () => {
    const file = withParts(docx(para("Dear {ClientName}")), {
      "word/comments.xml":
        '<?xml version="1.0"?><w:comments xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:comment w:id="0"><w:p><w:r><w:t>Check {Fee} with legal</w:t></w:r></w:p></w:comment></w:comments>',
    });
    const [finding] = check(file);
    expect(finding).toMatchObject({ code: "TagNotFilled", severity: "warning", location: "word/comments.xml" });
    expect(finding.message).toContain("{Fee} is in a comment");
  });

  it("reports a section tag alone on its line whose partner shares a line with text, naming the paragraph", () => {
    const file = docx([para("Intro"), para("{#vip}"), para("Priority support"), para("Thanks. {/vip}"), para("{#ok}"), para("fine"), para("{/ok}")].join(""));
    const findings = check(file);
    expect(codes(findings)).toEqual(["BlankLineLeft"]);
    expect(findings[0].location).toBe("word/document.xml, paragraph 2");
    expect(findings[0].message).toContain("{#vip} is alone on its line but {/vip} shares a line with text");
  });

  it("reports fonts the converter lacks, and metric-compatible substitutes as information", () => {
    const run = (font: string, text: string) => `<w:p><w:r><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}"/></w:rPr><w:t>${text}</w:t></w:r></w:p>`;
    const file = docx(run("Frobnicate Sans", "odd") + run("Calibri", "common") + run("Georgia", "installed"));
    const findings = check(
      file,
      FONTS.filter((f) => f !== "Calibri"),
    ).filter((f) => f.location === "fonts");
    expect(findings.map((f) => [f.code, f.severity, f.message.split(" ")[0]]).sort()).toEqual([
      ["FontMissing", "warning", "Frobnicate"],
      ["FontSubstituted", "info", "Calibri"],
    ]);
    expect(findings.find((f) => f.code === "FontSubstituted")!.message).toContain("Carlito");
    // A converter that cannot list its fonts (Gotenberg): fonts are not checked.
    expect(check(file, null).filter((f) => f.location === "fonts")).toEqual([]);
  });

  it("reports an image over the size limit with its dimensions", () => {
    const big = withBinary(docx(para("Logo")), "word/media/image1.png", png(IMAGE_LIMITS.pixels + 500, 8));
    const small = withBinary(docx(para("Logo")), "word/media/image1.png", png(400, 300));
    const [finding] = check(big);
    expect(finding).toMatchObject({ code: "ImageTooLarge", location: "word/media/image1.png" });
    expect(finding.message).toContain(`${IMAGE_LIMITS.pixels + 500}×8 px`);
    expect(check(small)).toEqual([]);
  });

  it("reports SmartArt, ActiveX controls, embedded objects, 3-D effects and a table of contents", () => {
    const file = withParts(
      docx(
        [
          '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" </w:instrText></w:r></w:p>',
          '<w:p><w:r><w:object><w:control r:id="rId9" w:name="CheckBox1"/></w:object></w:r></w:p>',
          '<w:p><w:r><w:drawing><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:scene3d/></a:graphic></w:drawing></w:r></w:p>',
        ].join(""),
      ),
      { "word/diagrams/data1.xml": '<?xml version="1.0"?><dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram"/>' },
    );
    const findings = check(file).filter((f) => f.code === "RendersDifferently");
    const text = findings.map((f) => f.message).join("\n");
    for (const what of ["ActiveX", "embedded object", "3-D", "table of contents", "SmartArt"]) expect(text).toContain(what);
    expect(findings.find((f) => f.message.includes("SmartArt"))!.location).toBe("word/diagrams/data1.xml");
  });
});
