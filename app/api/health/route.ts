import { checkHealth } from "@/lib/server/health";
import { observed } from "@/lib/http/observe";

export const dynamic = "force-dynamic";

export const GET = observed(
  async function GET(): Promise<Response> {
    const health = await checkHealth();
    return Response.json(health, { status: health.database === "ok" ? 200 : 503 });
  },
  { accessLog: "debug" },
);
