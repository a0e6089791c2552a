// The request schema of POST /v1/deliverable owns the variables' types and shapes (the render plan
// owns their values: tests/unit/render-validation.test.ts). Parsed as a route parses it, so each
// refusal is the 400 a client sees, with the field it names.
import { describe, expect, it } from "vitest";
import { createDeliverableBody } from "@/lib/deliverables/schemas";
import { ValidationError } from "@/lib/errors";
import { parseWith } from "@/lib/http/validation";

const templateId = "00000000-0000-4000-8000-000000000000";

function refusal(variables: unknown): ValidationError {
  try {
    parseWith(createDeliverableBody, { name: "Letter", templateId, variables });
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err as ValidationError;
  }
  throw new Error("the schema accepted it");
}

const fields = (variables: unknown) => refusal(variables).issues.map((i) => i.field);

describe("createDeliverableBody: variables", () => {
  it("refuses a wrong mimeType and non-string fields, naming each", () => {
    const mime = refusal([{ placeholder: "{Name}", mimeType: "pdf", text: "x" }]);
    expect(mime.issues).toEqual([{ field: "variables.0.mimeType", message: expect.stringContaining("text, html, image, markdown") }]);
    expect(fields([{ placeholder: "{Name}", mimeType: "text", text: 42 }])).toEqual(["variables.0.text"]);
    expect(fields([{ placeholder: "{Name}", mimeType: "text", text: "x", isDisabled: "yes" }])).toEqual(["variables.0.isDisabled"]);
    expect(fields([{ placeholder: "{Name}", mimeType: "text", text: "x", aiPrompt: 7 }])).toEqual(["variables.0.aiPrompt"]);
    expect(fields("not a list")).toEqual(["variables"]);
    expect(fields([null])).toEqual(["variables.0"]);
  });

  it("refuses stacks with keys that are not indexes or entries that are not text", () => {
    const entry = { text: "x", mimeType: "text" };
    expect(fields([{ placeholder: "{Name}", mimeType: "text", variableStack: { first: entry } }])[0]).toMatch(/^variables\.0\.variableStack/);
    expect(fields([{ placeholder: "{Name}", mimeType: "text", variableStack: [{ text: 1, mimeType: "text" }] }])[0]).toMatch(/^variables\.0\.variableStack/);
    expect(fields([{ placeholder: "{Name}", mimeType: "text", variableStack: [{ text: "x", mimeType: "gif" }] }])[0]).toMatch(/^variables\.0\.variableStack/);
  });

  it("allows one level of subvariables and refuses a second instead of dropping it", () => {
    const sub = { placeholder: "{First}", mimeType: "text", text: "A" };
    const parent = (subvariables: unknown[]) => [{ placeholder: "{Name}", mimeType: "html", text: "<p>Hi {First}</p>", subvariables }];
    expect(parseWith(createDeliverableBody, { name: "Letter", templateId, variables: parent([sub]) }).variables[0].subvariables).toEqual([sub]);
    const nested = refusal(parent([{ ...sub, subvariables: [] }]));
    expect(nested.issues).toEqual([{ field: "variables.0.subvariables.0.subvariables", message: expect.stringContaining("one level only") }]);
  });

  it("requires text unless stacked, disabled or prompted", () => {
    expect(fields([{ placeholder: "{Name}", mimeType: "text" }])).toEqual(["variables.0.text"]);
    expect(
      parseWith(createDeliverableBody, { name: "Letter", templateId, variables: [{ placeholder: "{Name}", mimeType: "text", isDisabled: true }] }),
    ).toBeTruthy();
  });
});
