import { openApiDocument } from "@/lib/openapi/document";
import fs from "node:fs";
const doc = openApiDocument("http://localhost:3000");
fs.writeFileSync("/tmp/oa/doc.json", JSON.stringify(doc, null, 2));
console.log(JSON.stringify(doc).length, Object.keys(doc.components?.schemas ?? {}).join(" "));
