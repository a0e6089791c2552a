// The proxy skips API requests (issue 17, goal 3); these checks keep its hand-written matcher literals in
// step with the routes that exist and with the error families the answers before a route use.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { familyOfPath } from "@/lib/http/families";
import { operations } from "@/lib/openapi/operations";
import { config } from "@/proxy";

const APP = path.resolve(__dirname, "..", "..", "app");

/** Top-level app/ folders that hold route handlers and no page: the API's path prefixes (and /embed.js). */
function apiPrefixes(): string[] {
  const holds = (dir: string, file: RegExp): boolean =>
    fs.readdirSync(dir, { withFileTypes: true }).some((e) => (e.isDirectory() ? holds(path.join(dir, e.name), file) : file.test(e.name)));
  return fs
    .readdirSync(APP, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith("(") && holds(path.join(APP, e.name), /^route\.ts$/) && !holds(path.join(APP, e.name), /^page\.tsx$/))
    .map((e) => e.name);
}

const pageMatcher = config.matcher[0].source;
const excluded = /\(\?:([a-z0-9|\\.-]+)\)\(\?:\/\|\$\)/.exec(pageMatcher)?.[1].replaceAll("\\.", ".").split("|") ?? [];

describe("proxy matcher", () => {
  it("leaves out exactly the API's prefixes (app/ folders of route handlers, and the /turbosign alias)", () => {
    expect(excluded.sort()).toEqual([...apiPrefixes(), "turbosign"].sort());
    for (const prefix of excluded.filter((p) => p !== "embed.js")) expect([prefix, familyOfPath(`/${prefix}/x`)]).toEqual([prefix, expect.any(String)]);
    for (const m of config.matcher.slice(1, 2)) expect(m.source).toBe(pageMatcher);
  });

  it("runs on pages and on any path holding a %, and not on other API paths", () => {
    const runs = (p: string) => config.matcher.some((m) => new RegExp(`^${m.source.replace("(.*%.*)", ".*%.*")}$`).test(p));
    for (const p of ["/", "/login", "/templates/x", "/sign/abc", "/deliverables/new", "/v1/deliverable/%zz", "/api/webhooks/%00", "/templates%2f"])
      expect([p, runs(p)]).toEqual([p, true]);
    for (const p of [
      "/v1/deliverable",
      "/api/health",
      "/esign/documents/x/signing-url",
      "/template-item",
      "/template",
      "/tag/x",
      "/turbosign/documents",
      "/embed.js",
      "/_next/static/x.js",
    ])
      expect([p, runs(p)]).toEqual([p, false]);
  });

  it("answers before a route in the family every documented operation declares", () => {
    for (const op of operations) expect([op.path, familyOfPath(op.path.replace(/\{[^}]+\}/g, "x"))]).toEqual([op.path, op.auth?.family ?? expect.anything()]);
  });
});
