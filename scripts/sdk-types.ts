// npm run sdk:types: regenerates lib/sdk/openapi-types.ts from the OpenAPI document (run after
// changing a request or response schema; the unit tests fail until the file is current).
import fs from "node:fs";
import path from "node:path";
import { SDK_TYPES_FILE, sdkTypesSource } from "@/lib/openapi/sdk-types";

const file = path.resolve(__dirname, "..", SDK_TYPES_FILE);
sdkTypesSource().then((text) => {
  fs.writeFileSync(file, text);
  console.log(`wrote ${SDK_TYPES_FILE}`);
});
