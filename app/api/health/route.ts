import { checkHealth } from "@/lib/server/health";
import { publicRoute } from "@/lib/http/api-route";
import { serviceOperations } from "@/lib/server/operations";
import { jsonReply } from "@/lib/http/json-reply";

export const dynamic = "force-dynamic";

export const GET = publicRoute(
  serviceOperations.getHealth,
  async function GET(): Promise<Response> {
    const health = await checkHealth();
    return jsonReply(health, { status: health.database === "ok" ? 200 : 503 });
  },
  { accessLog: "debug" },
);
