// The SDK is its own package: `tsc -p lib/sdk` (its `npm run build`) must emit ESM JavaScript and
// declarations that Node.js can import and TypeScript consumers can compile against, and the
// sources must not reach into the app.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");
const SDK = path.join(ROOT, "lib", "sdk");
const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
const pkg = JSON.parse(fs.readFileSync(path.join(SDK, "package.json"), "utf8"));

let tmp: string;
let out: string;

beforeAll(() => {
  // A copy of the package (sources, package.json, tsconfig), built as `npm run build` would build it.
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-sdk-"));
  const copy = path.join(tmp, "sdk");
  fs.mkdirSync(copy);
  for (const f of fs.readdirSync(SDK)) if (/\.(ts|tsx|json)$/.test(f)) fs.copyFileSync(path.join(SDK, f), path.join(copy, f));
  // Type packages resolve from the repository's node_modules, as in a checkout.
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(tmp, "node_modules"));
  execFileSync(process.execPath, [TSC, "-p", path.join(copy, "tsconfig.json")], { cwd: copy, encoding: "utf8" });
  out = path.join(copy, "dist");
}, 120_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("@quire/sdk package", () => {
  it("is an ES module package whose build script is tsc into dist", () => {
    expect(pkg.name).toBe("@quire/sdk");
    expect(pkg.type).toBe("module");
    expect(pkg.scripts.build).toMatch(/^tsc\b/);
    const tsconfig = JSON.parse(fs.readFileSync(path.join(SDK, "tsconfig.json"), "utf8"));
    expect(tsconfig.compilerOptions.outDir).toBe("dist");
    expect(tsconfig.compilerOptions.declaration).toBe(true);
    expect(fs.readFileSync(path.join(ROOT, ".gitignore"), "utf8")).toMatch(/^\/lib\/sdk\/dist\/?$/m);
  });

  it("emits index.js with declarations, and every export target (client, webhooks, browser embed, React)", () => {
    for (const f of ["index.js", "index.d.ts", "client.js", "client.d.ts", "webhooks.js", "webhooks.d.ts", "errors.d.ts", "types.d.ts"]) {
      expect(fs.existsSync(path.join(out, f)), f).toBe(true);
    }
    for (const entry of Object.keys(pkg.exports).filter((e) => e !== "./package.json")) {
      for (const target of Object.values(pkg.exports[entry] as Record<string, string>)) {
        expect(fs.existsSync(path.join(out, "..", target)), `${entry} -> ${target}`).toBe(true);
      }
    }
    expect(fs.readFileSync(path.join(out, "index.d.ts"), "utf8")).toMatch(/verifyWebhookSignature/);
  });

  it("imports only its own files and node:crypto (no app code, no browser embed in the main entry)", () => {
    for (const f of fs.readdirSync(SDK).filter((f) => /\.tsx?$/.test(f) && !["embed.ts", "react.tsx"].includes(f))) {
      const src = fs.readFileSync(path.join(SDK, f), "utf8");
      const specifiers = [...src.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]);
      for (const s of specifiers) expect(s === "node:crypto" || /^\.\/[a-z-]+\.js$/.test(s), `${f} imports ${s}`).toBe(true);
      if (f === "index.ts") expect(specifiers.some((s) => /embed|react/.test(s))).toBe(false);
    }
  });

  it("runs in plain Node.js as ESM: the client and verifyWebhookSignature work from dist", () => {
    const script = `
      import { QuireClient, QuireApiError, verifyWebhookSignature, signWebhookPayload } from ${JSON.stringify(path.join(out, "index.js"))};
      import { verifyWebhookSignature as v2 } from ${JSON.stringify(path.join(out, "webhooks.js"))};
      const h = signWebhookPayload('{"a":1}', "whsec_x");
      const seen = [];
      const client = new QuireClient({ baseUrl: "https://quire.example.com/", apiKey: "qk_test", orgId: "org-1",
        fetch: async (url, init) => { seen.push([url, init.headers]); return new Response(JSON.stringify({ error: "DeliverableNotFound", message: "no" }), { status: 404 }); } });
      let err;
      try { await client.deliverables.get("d1"); } catch (e) { err = e; }
      console.log(JSON.stringify({ ok: verifyWebhookSignature('{"a":1}', h, "whsec_x") && v2('{"a":1}', h, "whsec_x"), bad: verifyWebhookSignature('{"a":2}', h, "whsec_x"),
        url: seen[0][0], auth: seen[0][1].Authorization, isApiError: err instanceof QuireApiError, status: err.status, code: err.code }));
    `;
    const result = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: out, encoding: "utf8" }).trim());
    expect(result).toEqual({
      ok: true,
      bad: false,
      url: "https://quire.example.com/v1/deliverable/d1",
      auth: "Bearer qk_test",
      isApiError: true,
      status: 404,
      code: "DeliverableNotFound",
    });
  });

  it("its declarations type-check a consumer without @types/node (and reject a misuse)", () => {
    const consumer = path.join(tmp, "consumer");
    fs.mkdirSync(consumer);
    const write = (name: string, body: string) => fs.writeFileSync(path.join(consumer, name), body);
    // skipLibCheck false: the emitted .d.ts files are checked too; no node types: they must not need them.
    write(
      "tsconfig.json",
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
          lib: ["ES2022", "DOM"],
        },
        include: ["*.ts"],
      }),
    );
    const sdk = JSON.stringify(path.join(out, "index.js"));
    write(
      "ok.ts",
      `import { QuireClient, verifyWebhookSignature, type EmbeddedSignatureResult } from ${sdk};
       const c = new QuireClient({ baseUrl: "https://q.example", apiKey: "k", orgId: "o" });
       export async function f(): Promise<EmbeddedSignatureResult> {
         return c.esign.createEmbeddedSignature({ fileLink: "https://x.example/a.pdf", recipients: [{ name: "A", email: "a@x.example", auth: { emailOtp: true }, fields: { signature: "Sign here" } }] });
       }
       export const v: boolean = verifyWebhookSignature(new Uint8Array(), "t=1,v1=00", "s", { toleranceSeconds: 60 });
       export async function g() { const r = await f(); const s: "ready" | "pending" | "completed" = r.recipients[0].status; const u: string | null = r.recipients[0].embedUrl; return [s, u]; }
`,
    );
    write(
      "bad.ts",
      `import { QuireClient } from ${sdk};\nnew QuireClient({ baseUrl: "https://q.example", apiKey: "k", orgId: "o" }).esign.createEmbeddedSignature({ recipients: [{ name: "A", email: "a@x", auth: { sms: true } }] });\n`,
    );
    let output = "";
    try {
      execFileSync(process.execPath, [TSC, "-p", path.join(consumer, "tsconfig.json")], { cwd: consumer, encoding: "utf8" });
    } catch (err) {
      output = String((err as { stdout?: string }).stdout);
    }
    const errorFiles = [...output.matchAll(/^(\S+?)\(\d+,\d+\): error TS/gm)].map((m) => path.basename(m[1]));
    expect(errorFiles.length, output).toBeGreaterThan(0);
    expect(new Set(errorFiles), output).toEqual(new Set(["bad.ts"]));
  }, 60_000);
});
