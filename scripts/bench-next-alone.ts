// Issue 17 goal 3's floor: Next.js alone, the same version and build (Turbopack, `next start`), serving one
// route handler that returns a small JSON body. Quire's bare route (GET /api/health: its proxy, request id,
// observed() wrapper and one SELECT 1) is measured against it, so the difference is what Quire adds.
// A second route answers a list page Quire sent (handed over by servePage()), as Quire answers it
// (`Response.json` of the parsed page): what Next.js alone takes to send that reply, without a database.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, killGroup, SERVE_SCRIPT } from "../tests/support/quire-server";

const ROOT = path.resolve(__dirname, "..");
/** Inside the repository (ignored by git) so Turbopack resolves next from the project's node_modules. */
const APP_DIR = path.join(ROOT, ".bench", "next-alone");
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");

const FILES: Record<string, string> = {
  "package.json": JSON.stringify({ name: "quire-bench-next-alone", private: true }),
  "next.config.js": `module.exports = { turbopack: { root: ${JSON.stringify(ROOT)} } };\n`,
  // Its own (empty) hook: without one, the build picks up Quire's instrumentation.ts from the Turbopack root.
  "instrumentation.js": "export function register() {}\n",
  // And its own proxy, matching nothing: without one, the build picks up Quire's proxy.ts too.
  "proxy.js": 'export function proxy() {}\n\nexport const config = { matcher: "/never-matched" };\n',
  "app/layout.js": "export default function RootLayout({ children }) {\n  return children;\n}\n",
  "app/api/ping/route.js": 'export const dynamic = "force-dynamic";\n\nexport function GET() {\n  return Response.json({ status: "ok", database: "ok" });\n}\n',
  "app/api/page/[name]/route.js": [
    'import fs from "node:fs";',
    'import path from "node:path";',
    "",
    'export const dynamic = "force-dynamic";',
    "const pages = new Map();",
    "",
    "export async function GET(_req, { params }) {",
    "  const { name } = await params;",
    "  let page = pages.get(name);",
    "  if (page === undefined) {",
    '    page = JSON.parse(fs.readFileSync(path.join(process.env.NEXT_ALONE_PAGES_DIR, path.basename(name) + ".json"), "utf8"));',
    "    pages.set(name, page);",
    "  }",
    "  return Response.json(page);",
    "}",
    "",
  ].join("\n"),
};

export const NEXT_ALONE_PATH = "/api/ping";
/** GET `${NEXT_ALONE_PAGE_PATH}/<name>` answers the page servePage() wrote under that name, parsed once and sent with `Response.json`. */
const NEXT_ALONE_PAGE_PATH = "/api/page";

export interface NextAlone {
  baseUrl: string;
  pid: number;
  /** Makes the app answer `body` (a JSON text) at the path returned; before the path's first request. */
  servePage: (name: string, body: string | Buffer) => string;
  stop: () => Promise<void>;
}

/** Builds the app (once per source change) and starts it; `stop` kills its process group and removes its pages. */
export async function startNextAlone(): Promise<NextAlone> {
  const stamp = JSON.stringify(FILES);
  const stampFile = path.join(APP_DIR, ".built-from");
  if (!fs.existsSync(stampFile) || fs.readFileSync(stampFile, "utf8") !== stamp) {
    fs.rmSync(APP_DIR, { recursive: true, force: true });
    for (const [name, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(APP_DIR, name)), { recursive: true });
      fs.writeFileSync(path.join(APP_DIR, name), text);
    }
    const built = spawnSync(process.execPath, [NEXT_BIN, "build"], { cwd: APP_DIR, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" }, encoding: "utf8" });
    if (built.status !== 0) throw new Error(`building the Next.js-alone app failed:\n${built.stdout}\n${built.stderr}`);
    fs.writeFileSync(stampFile, stamp);
  }
  const pagesDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-bench-pages-"));
  const servePage = (name: string, body: string | Buffer) => {
    const file = path.basename(name);
    fs.writeFileSync(path.join(pagesDir, `${file}.json`), body);
    return `${NEXT_ALONE_PAGE_PATH}/${file}`;
  };
  const port = await freePort();
  const child: ChildProcess = spawn("bash", [SERVE_SCRIPT, "--next-start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: APP_DIR,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", NEXT_ALONE_PAGES_DIR: pagesDir },
    stdio: "ignore",
    detached: true,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await killGroup(child, "SIGKILL", 10_000);
    fs.rmSync(pagesDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the Next.js-alone app exited with ${child.exitCode}`);
    }
    if (
      await fetch(`${baseUrl}${NEXT_ALONE_PATH}`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { baseUrl, pid: child.pid!, servePage, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error("the Next.js-alone app did not answer within 30 s");
}
