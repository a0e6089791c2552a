// Helpers for embedded-signing tests: organizations with given settings, documents to sign, the
// outbox, the passcode endpoints and the test clock.
import crypto from "node:crypto";
import { persistedSecret } from "@/lib/config";
import type { SeedResult } from "@/lib/orgs/seed";
import { as, call } from "./api";
import { onePagePdf } from "./esign";
import { runSeedAgainst } from "./helpers";
import type { QuireTestServer } from "./quire-server";

export const HS_SECRET = "an-hs256-secret-that-is-long-enough-0123456789";

/** A fresh organization with these embedded-signing settings and an HS256 provider "acme-idv". */
export function orgWith(server: QuireTestServer, signing: Record<string, unknown>, plan: Record<string, unknown> = {}): SeedResult {
  const slug = `emb-${crypto.randomBytes(4).toString("hex")}`;
  return runSeedAgainst(server, ["--org", slug, "--signing", JSON.stringify(signing), "--plan", JSON.stringify(plan), "--identity-providers", JSON.stringify([{ name: "acme-idv", kind: "hs256", secret: HS_SECRET }])]);
}

export async function prepareDoc(baseUrl: string, seed: SeedResult, recipients: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await onePagePdf())]), "nda.pdf");
  form.set("documentName", "NDA");
  form.set("senderName", "Sam Sender");
  form.set("senderEmail", "sam@example.com");
  form.set("sendEmail", "false");
  form.set("recipients", JSON.stringify(recipients));
  form.set("fields", JSON.stringify(recipients.map((r, i) => ({ type: "text", recipientEmail: r.email, page: 1, x: 50, y: 100 + i * 40, width: 200, height: 20 }))));
  for (const [k, v] of Object.entries(extra)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  return as(baseUrl, seed, "contributor")("/esign/single/prepare-for-signing", { method: "POST", body: form });
}

export async function latestMailTo(baseUrl: string, seed: SeedResult, to: string, kind?: string) {
  const r = await as(baseUrl, seed)(`/api/outbox?to=${encodeURIComponent(to)}&limit=50`);
  return (r.json.data.results as { kind: string; text: string; subject: string }[]).find((m) => !kind || m.kind === kind);
}

export function tokenOfUrl(url: string): string {
  return new URL(url).searchParams.get("token")!;
}

export function passcodeApi(baseUrl: string, token: string) {
  return {
    send: () => call(baseUrl, `/api/signer/${token}/passcode`, { method: "POST", body: {} }),
    verify: (code: string) => call(baseUrl, `/api/signer/${token}/passcode/verify`, { method: "POST", body: { code } }),
  };
}

export async function setClock(server: QuireTestServer, offsetMs: number): Promise<void> {
  const r = await call(server.baseUrl, "/api/internal/clock", { method: "POST", headers: { "x-quire-local-secret": persistedSecret(server.dataDir, "localAdminSecret") }, body: { offsetMs } });
  if (r.status !== 200) throw new Error(`clock: ${r.status} ${r.text}`);
}
