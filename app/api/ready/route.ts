import { checkReadiness } from "@/lib/server/health";
import { observed } from "@/lib/http/observe";

export const dynamic = "force-dynamic";

export const GET = observed(
  async function GET(): Promise<Response> {
    const readiness = await checkReadiness();
    return Response.json(readiness, { status: readiness.status === "ready" ? 200 : 503, headers: { "cache-control": "no-store" } });
  },
  { accessLog: "debug" },
);
