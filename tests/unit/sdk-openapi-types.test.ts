// The SDK's types are aliases of lib/sdk/openapi-types.ts, which openapi-typescript generates from
// the OpenAPI document. This test regenerates it in memory and fails when the committed file is
// stale: a request or response schema changed without `npm run sdk:types`.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SDK_TYPES_FILE, sdkTypesSource } from "@/lib/openapi/sdk-types";

const root = path.resolve(__dirname, "../..");

describe("SDK types generated from the OpenAPI document", () => {
  it(`${SDK_TYPES_FILE} is what npm run sdk:types writes today`, async () => {
    const committed = fs.readFileSync(path.join(root, SDK_TYPES_FILE), "utf8");
    // One message instead of a 5,000-line diff when it is stale.
    expect(committed === (await sdkTypesSource()), `${SDK_TYPES_FILE} is stale: run npm run sdk:types`).toBe(true);
  });
});
