import { getConfig } from "@/lib/config";
import { getDriver, sqlRunner } from "@/lib/db/driver";
import { pdfConverterInfo } from "@/lib/pdf/converter";

export interface Health {
  status: "ok" | "degraded";
  database: "ok" | "unavailable";
  pdfConverter: "ok" | "unavailable";
}

export async function checkHealth(): Promise<Health> {
  const database = await sqlRunner(await getDriver(getConfig().database))
    .query("SELECT 1")
    .then(
      () => "ok" as const,
      () => "unavailable" as const,
    );
  const converter = await pdfConverterInfo();
  return { status: database === "ok" ? "ok" : "degraded", database, pdfConverter: converter.status };
}
