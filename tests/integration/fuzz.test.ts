// Property-based fuzzing (fast-check) of every operation in /api/openapi.json plus the signer
// endpoints, with hostile values: NUL, lone surrogates, malformed percent-encoding, huge and negative
// numbers, wrong types, prototype keys, duplicate keys, deep nesting, truncated JSON and multipart.
// Properties: never a 5xx; an error answers in its family's shape; a refused request writes nothing.
// A fixed seed and a bounded number of runs inside `npm test`; `npm run fuzz` runs longer
// (QUIRE_FUZZ_RUNS, QUIRE_FUZZ_SEED).
import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { familyOfPath } from "@/lib/http/families";
import { as } from "../support/helpers";

const { baseUrl, seed } = inject("quire");
const admin = as(baseUrl, seed, "administrator");
const RUNS = Number(process.env.QUIRE_FUZZ_RUNS ?? 400);
const SEED = Number(process.env.QUIRE_FUZZ_SEED ?? 20261124);

interface Op {
  method: string;
  path: string;
  pathParams: string[];
  query: string[];
  body: "json" | "multipart" | null;
  properties: string[];
}

let ops: Op[] = [];
const SIGNER_OPS: Op[] = [
  { method: "get", path: "/api/signer/{token}", pathParams: ["token"], query: ["s"], body: null, properties: [] },
  { method: "post", path: "/api/signer/{token}/sign", pathParams: ["token"], query: [], body: "json", properties: ["values"] },
  { method: "post", path: "/api/signer/{token}/passcode", pathParams: ["token"], query: [], body: "json", properties: ["channel"] },
  { method: "post", path: "/api/signer/{token}/passcode/verify", pathParams: ["token"], query: [], body: "json", properties: ["code"] },
  { method: "get", path: "/api/signer/{token}/page/{n}", pathParams: ["token", "n"], query: ["width"], body: null, properties: [] },
];

beforeAll(async () => {
  const doc = (await admin("/api/openapi.json")).json;
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "patch", "put", "delete"].includes(method)) continue;
      const params = (op.parameters ?? []) as { in: string; name: string }[];
      const content = op.requestBody?.content ?? {};
      const json = content["application/json"]?.schema;
      const multipart = content["multipart/form-data"]?.schema;
      ops.push({
        method,
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: params.filter((p) => p.in === "query").map((p) => p.name),
        body: json ? "json" : multipart ? "multipart" : null,
        properties: Object.keys((json ?? multipart)?.properties ?? {}),
      });
    }
  }
  ops = [...ops, ...SIGNER_OPS];
});

const hostileString = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "ab\ud800cd",
    "\udc00",
    "%00",
    "%zz",
    "%C0%AE%C0%AE",
    "../../etc/passwd",
    "__proto__",
    "constructor",
    "{{}}",
    "{#x}",
    "<script>",
    "' OR 1=1 --",
    "\u202e",
    "𝔘𝔫𝔦",
    "x".repeat(5_000),
    "",
    " ",
    "-1",
    "1e309",
    "NaN",
    "null",
    "true",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 20 }),
);
const hostileNumber = fc.oneof(fc.constantFrom(-1, 0, -0, Number.MAX_SAFE_INTEGER, 2 ** 63, -(2 ** 31), 1.5), fc.integer(), fc.double({ noNaN: true }));
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom("__proto__", "constructor", "prototype")), tie("value"), { maxKeys: 3 }),
  ),
})).value;

/** A body as raw text, so it can be malformed on purpose. */
const jsonBody = (properties: string[]) =>
  fc.oneof(
    fc.record(Object.fromEntries(properties.map((p) => [p, hostileValue])), { requiredKeys: [] }).map((o) => JSON.stringify(o)),
    fc.constantFrom(
      '{"name":"a","name":"b"}',
      '{"__proto__":{"isAdmin":true}}',
      "[",
      "{",
      '{"a":',
      "null",
      "[]",
      '"text"',
      "1e999",
      "[".repeat(5_000) + "]".repeat(5_000),
      '{"x":"\\ud800"}',
    ),
    hostileValue.map((v) => JSON.stringify(v) ?? "null"),
  );

const request = fc.integer({ min: 0, max: 10_000 }).chain((i) => {
  const op = ops[i % ops.length];
  return fc.record({
    op: fc.constant(op),
    params: fc.tuple(...op.pathParams.map(() => hostileString), fc.constant(null)),
    query: fc.array(fc.tuple(fc.constantFrom(...(op.query.length ? op.query : ["x"])), hostileString), { maxLength: 3 }),
    body: op.body === "json" ? jsonBody(op.properties) : op.body === "multipart" ? fc.constantFrom("truncated", "fields", "nofile") : fc.constant(null),
  });
});

function encodeSegment(value: string): string {
  // Most values go encoded; raw %-sequences stay as written, to reach the malformed-URL path.
  if (/^%/.test(value)) return value;
  // A lone surrogate has no UTF-8 form: send the bytes a careless client would (CESU-8), which no URL decoder accepts.
  return value.isWellFormed() ? encodeURIComponent(value) : `${encodeURIComponent(value.toWellFormed())}%ED%A0%80`;
}

async function rowCounts() {
  const [d, t, e, w] = await Promise.all([
    admin("/v1/deliverable?limit=1"),
    admin("/template-item?type=template&limit=1"),
    admin("/esign/documents?limit=1"),
    admin("/api/webhooks"),
  ]);
  const hooks = Array.isArray(w.json?.data) ? w.json.data : (w.json?.data?.results ?? []);
  return [
    d.json?.data?.totalRecords,
    t.json?.data?.totalRecords,
    e.json?.data?.totalRecords,
    hooks
      .map((h: { name: string; isActive?: boolean }) => `${h.name}:${h.isActive}`)
      .sort()
      .join(","),
  ];
}

function expectFamilyShape(path: string, status: number, json: any, text: string) {
  const family = familyOfPath(path);
  if (status === 401 || status === 403) return; // some families answer these with an empty body
  if (family === null) return;
  expect(json, `JSON error body for ${status} ${path}: ${text.slice(0, 200)}`).toBeTypeOf("object");
  if (family === "deliverable") expect(json).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  if (family === "signing") expect(typeof json.message === "string" && typeof json.type === "string", text.slice(0, 200)).toBe(true);
  if (family === "signer") expect(json).toMatchObject({ error: expect.any(String), code: expect.any(String) });
  if (family === "listing" || family === "webhook") expect(typeof (json.message ?? json.error) === "string", text.slice(0, 200)).toBe(true);
}

describe("fuzzing every operation", () => {
  it(`answers ${RUNS} hostile requests without a 5xx, in each family's shape, writing nothing when it refuses`, async () => {
    expect(ops.length).toBeGreaterThan(40);
    await fc.assert(
      fc.asyncProperty(request, async ({ op, params, query, body }) => {
        let path = op.path;
        op.pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, encodeSegment(params[i] as string) || "x")));
        const search = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeSegment(v)}`).join("&");
        const url = `${baseUrl}${path}${search ? `?${search}` : ""}`;
        const headers: Record<string, string> = {
          authorization: `Bearer ${seed.keys.administrator}`,
          "x-service-org-id": seed.orgId,
          accept: "application/json",
        };
        let payload: BodyInit | undefined;
        if (op.body === "json" && typeof body === "string") {
          headers["content-type"] = "application/json";
          payload = body;
        } else if (op.body === "multipart") {
          const boundary = "----quire-fuzz";
          headers["content-type"] = `multipart/form-data; boundary=${boundary}`;
          const part = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nab\u0000c\r\n`;
          payload =
            body === "truncated"
              ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.docx"\r\n\r\nPK\u0003\u0004`
              : body === "fields"
                ? `${part}--${boundary}--\r\n`
                : `--${boundary}--\r\n`;
        }
        const writes = op.method !== "get";
        const before = writes ? await rowCounts() : null;
        const res = await fetch(url, { method: op.method.toUpperCase(), headers, body: payload, redirect: "manual" });
        const text = await res.text();
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        expect(res.status, `${op.method.toUpperCase()} ${url.slice(0, 300)} -> ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status >= 400) {
          expectFamilyShape(path, res.status, json, text);
          if (before) expect(await rowCounts(), `${op.method} ${path} refused but wrote`).toEqual(before);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);
});
