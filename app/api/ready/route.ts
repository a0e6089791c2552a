import { checkReadiness } from "@/lib/server/health";
import { publicRoute } from "@/lib/http/api-route";
import { serviceOperations } from "@/lib/server/operations";
import { jsonReply } from "@/lib/http/json-reply";

export const dynamic = "force-dynamic";

export const GET = publicRoute(
  serviceOperations.getReadiness,
  async function GET(): Promise<Response> {
    const readiness = await checkReadiness();
    return jsonReply(readiness, { status: readiness.status === "ready" ? 200 : 503, headers: { "cache-control": "no-store" } });
  },
  { accessLog: "debug" },
);
