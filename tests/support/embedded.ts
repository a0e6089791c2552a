// Helpers for embedded-signing tests: organizations with given settings, documents to sign, the
// outbox, the passcode endpoints and the test clock.
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import type { Role } from "@/lib/auth/roles";
import { persistedSecret } from "@/lib/config";
import type { SeedResult } from "@/lib/orgs/seed";
import { as, call } from "./api";
import { onePagePdf } from "./esign";
import type { QuireTestServer } from "./quire-server";

const execFileAsync = promisify(execFile);

export const HS_SECRET = "an-hs256-secret-that-is-long-enough-0123456789";

export type EmbeddedOrg = SeedResult & { slug: string };

function seedArgs(slug: string, signing: Record<string, unknown>, plan: Record<string, unknown>, providers: boolean): string[] {
  return [
    "--org",
    slug,
    "--signing",
    JSON.stringify(signing),
    "--plan",
    JSON.stringify(plan),
    ...(providers ? ["--identity-providers", JSON.stringify([{ name: "acme-idv", kind: "hs256", secret: HS_SECRET }])] : []),
  ];
}

const ROOT = path.resolve(__dirname, "..", "..");

/**
 * The seed CLI, without blocking the event loop: a blocked loop (spawnSync) lets the server close
 * idle keep-alive sockets unnoticed, and the next request then fails with EPIPE on a dead socket.
 */
async function seedAsync(server: QuireTestServer, args: string[]): Promise<SeedResult> {
  const { stdout } = await execFileAsync(process.execPath, [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/seed.ts", "--json", ...args], {
    cwd: ROOT,
    env: server.env as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  return JSON.parse(stdout.trim().split("\n").pop() as string) as SeedResult;
}

/** A fresh organization with these embedded-signing settings and an HS256 provider "acme-idv". */
export async function orgWith(server: QuireTestServer, signing: Record<string, unknown>, plan: Record<string, unknown> = {}): Promise<EmbeddedOrg> {
  const slug = `emb-${crypto.randomBytes(4).toString("hex")}`;
  return { ...(await seedAsync(server, seedArgs(slug, signing, plan, true))), slug };
}

/**
 * Changes an organization's settings (merged into the saved ones) and plan, as an administrator
 * would between two requests. The seed rotates the keys: use the organization it returns.
 */
export async function reconfigure(
  server: QuireTestServer,
  org: EmbeddedOrg,
  signing: Record<string, unknown>,
  plan: Record<string, unknown> = {},
): Promise<EmbeddedOrg> {
  return { ...(await seedAsync(server, seedArgs(org.slug, signing, plan, false))), slug: org.slug };
}

export async function prepareDoc(
  baseUrl: string,
  seed: SeedResult,
  recipients: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
  opts: { role?: Role; path?: string } = {},
) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await onePagePdf())]), "nda.pdf");
  form.set("documentName", "NDA");
  form.set("senderName", "Sam Sender");
  form.set("senderEmail", "sam@example.com");
  form.set("sendEmail", "false");
  form.set("recipients", JSON.stringify(recipients));
  form.set(
    "fields",
    JSON.stringify(recipients.map((r, i) => ({ type: "text", recipientEmail: r.email, page: 1, x: 50, y: 100 + i * 40, width: 200, height: 20 }))),
  );
  // A null in extra removes a default (e.g. { senderEmail: null }).
  for (const [k, v] of Object.entries(extra)) {
    if (v === null) form.delete(k);
    else form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return as(baseUrl, seed, opts.role ?? "contributor")(opts.path ?? "/esign/single/prepare-for-signing", { method: "POST", body: form });
}

export async function latestMailTo(baseUrl: string, seed: SeedResult, to: string, kind?: string) {
  const r = await as(baseUrl, seed)(`/api/outbox?to=${encodeURIComponent(to)}&limit=50`);
  return (r.json.data.results as { kind: string; text: string; subject: string }[]).find((m) => !kind || m.kind === kind);
}

export function tokenOfUrl(url: string): string {
  return new URL(url).searchParams.get("token")!;
}

/** All mails of an organization's outbox (newest first), optionally of one kind. */
export async function mailsOf(baseUrl: string, seed: SeedResult, kind?: string) {
  const r = await as(baseUrl, seed)(`/api/outbox?limit=100`);
  return (r.json.data.results as { kind: string; to: string; text: string; subject: string; documentId: string | null }[]).filter(
    (m) => !kind || m.kind === kind,
  );
}

/** The six-digit code of the newest passcode mail to `to`. */
export async function mailedCode(baseUrl: string, seed: SeedResult, to: string): Promise<string> {
  const mail = await latestMailTo(baseUrl, seed, to, "signing_passcode");
  const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1];
  if (!code) throw new Error(`no passcode mailed to ${to}`);
  return code;
}

/** POST signing-url for a document as a contributor (or another role). */
export function signingUrlOf(
  baseUrl: string,
  seed: SeedResult,
  documentId: string,
  body: unknown,
  role: "administrator" | "contributor" | "user" | "viewer" = "contributor",
) {
  return as(baseUrl, seed, role)(`/esign/documents/${documentId}/signing-url`, { method: "POST", body });
}

export function passcodeApi(baseUrl: string, token: string) {
  return {
    send: () => call(baseUrl, `/api/signer/${token}/passcode`, { method: "POST", body: {} }),
    verify: (code: string) => call(baseUrl, `/api/signer/${token}/passcode/verify`, { method: "POST", body: { code } }),
  };
}

export async function setClock(server: QuireTestServer, offsetMs: number): Promise<void> {
  const r = await call(server.baseUrl, "/api/internal/clock", {
    method: "POST",
    headers: { "x-quire-local-secret": persistedSecret(server.dataDir, "localAdminSecret") },
    body: { offsetMs },
  });
  if (r.status !== 200) throw new Error(`clock: ${r.status} ${r.text}`);
}
