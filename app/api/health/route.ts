import { checkHealth } from "@/lib/server/health";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const health = await checkHealth();
  return Response.json(health, { status: health.database === "ok" ? 200 : 503 });
}
