// GET /api/openapi.json: the OpenAPI 3.1 document of the REST API, generated from the zod schemas
// the routes parse with (lib/openapi). Public, like the embed script: it holds no secrets.
import { getConfig } from "@/lib/config";
import { publicRoute } from "@/lib/http/api-route";
import { serviceOperations } from "@/lib/server/operations";
import { openApiDocument } from "@/lib/openapi/document";

const HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "public, max-age=300",
  "access-control-allow-origin": "*",
  "x-content-type-options": "nosniff",
};

export const GET = publicRoute(serviceOperations.getOpenApiDocument, async function GET(): Promise<Response> {
  return new Response(JSON.stringify(openApiDocument(getConfig().baseUrl)), { headers: HEADERS });
});
