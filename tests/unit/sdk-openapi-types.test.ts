// The SDK's hand-written types (lib/sdk/types.ts) against the OpenAPI document: openapi-typescript
// turns the document into TypeScript, and the TypeScript compiler checks each SDK type against the
// generated type of the same request or response. "The same" means mutually assignable, and again
// with every optional field made required, so a field added, renamed, retyped or made optional on
// either side fails the test.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/openapi/document";

const root = path.resolve(__dirname, "../..");
let dir: string;

/** [name, SDK type, generated type]: each line one pair the compiler must find equal. */
const PAIRS: [string, string, string][] = [
  // Deliverables
  ["list deliverables", "S.Page<S.DeliverableListItem>", `Res<"/v1/deliverable", "get">["data"]`],
  ["create deliverable", "S.CreatedDeliverable", `Res<"/v1/deliverable", "post">["data"]["results"]["deliverable"]`],
  ["get deliverable", "S.Deliverable", `Res<"/v1/deliverable/{id}", "get">["data"]["results"]`],
  ["update deliverable", "S.DeliverableMessage", `Res<"/v1/deliverable/{id}", "patch">["data"]`],
  ["delete deliverable", "S.DeliverableMessage", `Res<"/v1/deliverable/{id}", "delete">["data"]`],
  ["tag", "S.Tag", `C["Tag"]`],
  ["variable (request)", "S.Variable", `C["Variable"]`],
  ["create deliverable body", "S.CreateDeliverableInput", `Body<"/v1/deliverable", "post">`],
  ["update deliverable body", "S.UpdateDeliverableInput", `Body<"/v1/deliverable/{id}", "patch">`],
  ["list deliverables query", "S.ListDeliverablesParams", `Query<"/v1/deliverable", "get">`],
  // Templates, folders, tags
  ["list template items", "S.Page<S.TemplateItem>", `Res<"/template-item", "get">["data"]`],
  ["list template items query", "S.ListTemplateItemsParams", `Query<"/template-item", "get">`],
  ["get template", "S.Template", `Res<"/template/{id}", "get">["data"]`],
  ["upload template", "S.Template", `Res<"/template", "post", 201>["data"]`],
  ["upload template fields", `Omit<S.UploadTemplateInput, "file" | "fileName">`, `Omit<Body<"/template", "post", "multipart/form-data">, "file">`],
  ["update template", "S.Template", `Res<"/template/{id}", "patch">["data"]`],
  ["update template body", "S.UpdateTemplateInput", `Body<"/template/{id}", "patch">`],
  ["delete template", "{ message: string; templateId: string }", `Res<"/template/{id}", "delete">["data"]`],
  ["create folder", "S.TemplateFolder", `Res<"/template-folder", "post", 201>["data"]`],
  ["create folder body", "S.CreateFolderInput", `Body<"/template-folder", "post">`],
  ["get folder", "S.TemplateFolderDetail", `Res<"/template-folder/{id}", "get">["data"]`],
  ["update folder", "S.TemplateFolder", `Res<"/template-folder/{id}", "patch">["data"]`],
  ["update folder body", "S.UpdateFolderInput", `Body<"/template-folder/{id}", "patch">`],
  ["delete folder", "{ message: string; folderId: string }", `Res<"/template-folder/{id}", "delete">["data"]`],
  ["list tags", "S.Tag[]", `Res<"/tag", "get">["data"]["results"]`],
  // Signing
  ["prepare for signing", "S.PrepareReply", `Res<"/esign/single/prepare-for-signing", "post">["data"]`],
  ["prepare for review", "S.ReviewReply", `Res<"/esign/single/prepare-for-review", "post">["data"]`],
  ["prepare body", `Omit<S.PrepareDocumentInput, "file" | "fileName" | "expiresAt"> & { expiresAt?: string }`, `Body<"/esign/single/prepare-for-signing", "post">`],
  ["signing recipient", "S.SigningRecipientInput", `C["SigningRecipientInput"]`],
  ["identity verification", "S.IdentityVerification", `C["IdentityVerification"]`],
  ["signing field", "S.SigningField", `C["SigningField"]`],
  ["send", "S.PrepareReply", `Res<"/esign/documents/{id}/send", "post">["data"]`],
  ["list documents", "S.Page<S.SigningDocument>", `Res<"/esign/documents", "get">["data"]`],
  ["list documents query", "S.ListDocumentsParams", `Query<"/esign/documents", "get">`],
  ["get document", "S.SigningDocument", `Res<"/esign/documents/{id}", "get">["data"]`],
  ["document status", `{ status: S.DocumentStatus }`, `Res<"/esign/documents/{id}/status", "get">["data"]`],
  ["void", "S.VoidResult", `Res<"/esign/documents/{id}/void", "post">["data"]`],
  ["resend", "S.ResendResult", `Res<"/esign/documents/{id}/resend-email", "post">["data"]`],
  ["audit trail", "S.AuditTrail", `Res<"/esign/documents/{id}/audit-trail", "get">["data"]`],
  ["signing url", "S.SigningUrlResult", `Res<"/esign/documents/{id}/signing-url", "post">["data"]["results"]`],
  ["signing url body", "S.SigningUrlInput", `Body<"/esign/documents/{id}/signing-url", "post">`],
  ["signing link (deprecated)", "S.SigningUrlResult", `Res<"/esign/documents/{id}/recipients/{recipientId}/signing-link", "get">["data"]["results"]`],
  ["embedded signing settings", "S.EmbeddedSigningSettings", `Res<"/esign/embedded-signing-settings", "get">["data"]["results"]`],
  // Webhooks
  ["create webhook", "S.WebhookWithSecret", `Res<"/api/webhooks", "post", 201>["data"]`],
  ["create webhook body", `S.CreateWebhookInput & { name: string }`, `Body<"/api/webhooks", "post">`],
  ["list webhooks", "S.Webhook[]", `Res<"/api/webhooks", "get">["data"]["results"]`],
  ["get webhook", "S.WebhookDetail", `Res<"/api/webhooks/{name}", "get">["data"]`],
  ["update webhook", "S.Webhook", `Res<"/api/webhooks/{name}", "patch">["data"]`],
  ["update webhook body", "S.UpdateWebhookInput", `Body<"/api/webhooks/{name}", "patch">`],
  ["delete webhook", "{ id: string }", `Res<"/api/webhooks/{name}", "delete">["data"]`],
  ["regenerate secret", "S.WebhookWithSecret", `Res<"/api/webhooks/{name}/regenerate-secret", "post">["data"]`],
  ["test webhook", "S.TestWebhookResult", `Res<"/api/webhooks/{name}/test", "post">["data"]`],
  ["test webhook body", "S.TestWebhookInput", `Body<"/api/webhooks/{name}/test", "post">`],
  ["list deliveries", "S.Page<S.WebhookDelivery>", `Res<"/api/webhooks/{name}/deliveries", "get">["data"]`],
  ["list deliveries query", "S.ListDeliveriesParams", `Query<"/api/webhooks/{name}/deliveries", "get">`],
  ["replay delivery", "S.WebhookDelivery", `Res<"/api/webhooks/{name}/deliveries/{deliveryId}/replay", "post">["data"]`],
  ["webhook envelope", "S.WebhookEnvelope", `C["WebhookEnvelope"]`],
];

/** Pairs that differ on purpose: the comparison must catch each, or it could never fail. */
const CONTROLS: [string, string, string][] = [
  ["control: extra optional field", `S.Tag & { note?: string }`, `C["Tag"]`],
  ["control: renamed field", `Omit<S.Tag, "label"> & { name: string }`, `C["Tag"]`],
  ["control: optional vs required", `Omit<S.Tag, "orgId"> & { orgId?: string }`, `C["Tag"]`],
  ["control: nested field", `Omit<S.Deliverable, "fonts"> & { fonts: { name: string }[] | null }`, `Res<"/v1/deliverable/{id}", "get">["data"]["results"]`],
];

const HEADER = `
import type * as S from ${JSON.stringify(path.join(root, "lib/sdk/types.ts"))};
import type { components, paths } from "./openapi";

type C = components["schemas"];
type Json<T> = T extends { content: { "application/json": infer J } } ? J : never;
type Res<P extends keyof paths, M extends keyof paths[P], St extends number = 200> = paths[P][M] extends { responses: infer R } ? (St extends keyof R ? Json<R[St]> : never) : never;
type Body<P extends keyof paths, M extends keyof paths[P], Ct extends string = "application/json"> = paths[P][M] extends { requestBody?: infer B } ? (NonNullable<B> extends { content: infer Co } ? (Ct extends keyof Co ? Co[Ct] : never) : never) : never;
type Query<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type DeepRequired<T> = T extends readonly (infer U)[] ? DeepRequired<U>[] : T extends object ? { [K in keyof T]-?: DeepRequired<T[K]> } : T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Same<A, B> = [A] extends [never] ? "no such generated type" : [B] extends [never] ? "no such generated type" : Mutual<A, B> extends true ? (Mutual<DeepRequired<A>, DeepRequired<B>> extends true ? true : "fields differ") : "not mutually assignable";
`;

function checkSource(pairs: [string, string, string][]): string {
  return HEADER + pairs.map(([, sdk, gen], i) => `export const pair${i}: Same<${sdk}, ${gen}> = true;`).join("\n") + "\n";
}

/** Compiles the check file; returns the names of the pairs the compiler rejects (and other errors). */
function failingPairs(file: string, pairs: [string, string, string][]): { failing: string[]; other: string[] } {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    types: [],
  });
  const failing = new Set<string>();
  const other: string[] = [];
  const source = fs.readFileSync(file, "utf8").split("\n");
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (d.file?.fileName === file && d.start !== undefined) {
      const line = source[d.file.getLineAndCharacterOfPosition(d.start).line];
      const m = /^export const pair(\d+):/.exec(line);
      if (m) {
        failing.add(pairs[Number(m[1])][0]);
        continue;
      }
    }
    other.push(`${d.file?.fileName ?? ""}: ${text}`);
  }
  return { failing: [...failing], other };
}

describe("SDK types against the OpenAPI document", () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-sdk-openapi-"));
    const doc = JSON.parse(JSON.stringify(openApiDocument("https://quire.example")));
    fs.writeFileSync(path.join(dir, "openapi.ts"), astToString(await openapiTS(doc)));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("match for every request and response the SDK covers", () => {
    const file = path.join(dir, "check.ts");
    fs.writeFileSync(file, checkSource(PAIRS));
    const { failing, other } = failingPairs(file, PAIRS);
    expect(other).toEqual([]);
    expect(failing, "SDK types that differ from the document (see lib/sdk/types.ts and the zod response schemas)").toEqual([]);
  });

  it("would notice a field added, renamed or made optional on one side", () => {
    const file = path.join(dir, "controls.ts");
    fs.writeFileSync(file, checkSource(CONTROLS));
    const { failing, other } = failingPairs(file, CONTROLS);
    expect(other).toEqual([]);
    expect(failing.sort()).toEqual(CONTROLS.map(([name]) => name).sort());
  });
});
