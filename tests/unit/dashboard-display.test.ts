// Pure helpers behind dashboard displays: table-row groups of a template, rich-text values as words,
// IP addresses as people know them, field overlap, and the API reference's example calls.
import type { oas31 } from "zod-openapi";
import { describe, expect, it } from "vitest";
import { valueAsPlainText } from "@/lib/deliverables/render/content";
import { firstOverlap, overlaps } from "@/lib/esign/field-overlap";
import { displayIp } from "@/lib/net/ip-display";
import { openApiDocument } from "@/lib/openapi/document";
import { operationExample } from "@/lib/openapi/examples";
import { buildSampleContractDocx, buildSampleInvoiceDocx } from "@/lib/templates/samples";
import { tableRowGroups } from "@/lib/templates/table-rows";

describe("tableRowGroups", () => {
  it("finds the contract's price row as one group, and leaves a loop's row to the loop", async () => {
    expect(tableRowGroups(await buildSampleContractDocx(), "docx")).toEqual([["{ItemName}", "{ItemQty}", "{ItemPrice}"]]);
    expect(tableRowGroups(await buildSampleInvoiceDocx(), "docx").flat()).not.toContain("{description}");
  });
});

describe("valueAsPlainText", () => {
  it("decodes entities and drops tags of HTML and markdown, keeping words apart", () => {
    expect(valueAsPlainText("html", "<p>Fish&nbsp;&amp;&nbsp;<b>chips</b></p><p>on Friday</p>")).toBe("Fish & chips on Friday");
    expect(valueAsPlainText("markdown", "**Bold** and _soft_")).toBe("Bold and soft");
    expect(valueAsPlainText("text", "  a <b>literal</b>  ")).toBe("a <b>literal</b>");
  });
});

describe("displayIp", () => {
  it("shows an IPv4-mapped address as IPv4 and leaves others alone", () => {
    expect(displayIp("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(displayIp("2001:db8::1")).toBe("2001:db8::1");
    expect(displayIp("unknown")).toBe("unknown");
  });
});

describe("field overlap", () => {
  const at = (page: number, x: number, y: number) => ({ page, x, y, width: 100, height: 20 });
  it("counts shared area on one page, not touching edges or other pages", () => {
    expect(overlaps(at(1, 0, 0), at(1, 99, 19))).toBe(true);
    expect(overlaps(at(1, 0, 0), at(1, 100, 0))).toBe(false);
    expect(overlaps(at(1, 0, 0), at(2, 0, 0))).toBe(false);
    expect(firstOverlap([at(1, 0, 0), at(1, 0, 40), at(1, 50, 45)])).toEqual([1, 2]);
    expect(firstOverlap([at(1, 0, 0), at(1, 0, 20)])).toBeNull();
  });
});

describe("operationExample", () => {
  const doc = openApiDocument("https://quire.example") as oas31.OpenAPIObject;
  const op = (path: string, method: "get" | "post") => doc.paths![path]![method] as oas31.OperationObject;
  it("gives a JSON call its sample body and the caller's org id", () => {
    const ex = operationExample(doc, "https://quire.example", "org-1", "post", "/v1/deliverable", op("/v1/deliverable", "post"));
    expect(ex.curl).toContain("curl -X POST 'https://quire.example/v1/deliverable'");
    expect(ex.curl).toContain("x-service-org-id: org-1");
    expect(JSON.parse(ex.jsonBody!)).toMatchObject({ name: expect.any(String), templateId: expect.any(String), variables: [expect.any(Object)] });
  });
  it("shows an upload with its file field", () => {
    const ex = operationExample(doc, "https://quire.example", "org-1", "post", "/template", op("/template", "post"));
    expect(ex.jsonBody).toBeNull();
    expect(ex.curl).toContain("-F 'file=@./your-file'");
  });
});
