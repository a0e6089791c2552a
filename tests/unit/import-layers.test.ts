// The import layers biome.jsonc declares (issue 18): lib/ never imports app/ or components/, and domain
// areas do not import lib/http. Files that break a rule are written to a scratch folder under lib/ (the
// rules match by path), linted with the project's Biome, and removed.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");
const scratch = path.join(ROOT, "lib", `layer-check-${crypto.randomBytes(4).toString("hex")}`);

function lint(files: Record<string, string>): { status: number | null; output: string } {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(scratch, name)), { recursive: true });
    fs.writeFileSync(path.join(scratch, name), text);
  }
  const run = spawnSync(path.join(ROOT, "node_modules", ".bin", "biome"), ["lint", "--max-diagnostics=50", path.relative(ROOT, scratch)], {
    cwd: ROOT,
    encoding: "utf8",
  });
  fs.rmSync(scratch, { recursive: true, force: true });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("import layers", () => {
  it("refuses lib/ importing app/ or components/", () => {
    const r = lint({
      "a.ts": 'import { GET } from "@/app/api/health/route";\nexport const handler = GET;\n',
      "b.ts": 'import { useHydrated } from "@/components/use-hydrated";\nexport const hook = useHydrated;\n',
    });
    expect(r.status).not.toBe(0);
    expect(r.output.match(/lib\/ must not import app\/ or components\//g)).toHaveLength(2);
  });

  it("refuses a domain area importing lib/http, and lets the HTTP boundary (schemas, responses) do it", () => {
    const domain = lint({ "area/service.ts": 'import { errorResponse } from "@/lib/http/errors";\nexport const respond = errorResponse;\n' });
    expect(domain.status).not.toBe(0);
    expect(domain.output).toContain("Domain code knows nothing of HTTP");
    const boundary = lint({ "area/schemas.ts": 'import { boolParam } from "@/lib/http/params";\nexport const flag = boolParam(false);\n' });
    expect(boundary.output).not.toContain("noRestrictedImports");
    expect(boundary.status, boundary.output).toBe(0);
  });
});
