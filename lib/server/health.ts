import { getConfig } from "@/lib/config";
import { getDriver, sqlRunner } from "@/lib/db/driver";
import { pdfConverterInfo } from "@/lib/pdf/converter";
import { type SealLevel, sealLevel } from "@/lib/pdf/seal";
import { fileStorage } from "@/lib/storage";

type Check = "ok" | "unavailable";

export interface Health {
  status: "ok" | "degraded";
  database: Check;
  pdfConverter: Check;
  /** The PAdES baseline level completed documents are sealed at (B-LT when TSA_URL is set). */
  sealLevel: SealLevel;
}

export interface Readiness {
  status: "ready" | "not_ready";
  database: Check;
  storage: Check;
  pdfConverter: Check;
}

async function check(probe: () => Promise<unknown>): Promise<Check> {
  return probe().then(
    () => "ok" as const,
    () => "unavailable" as const,
  );
}

const databaseCheck = () => check(async () => sqlRunner(await getDriver(getConfig().database)).query("SELECT 1"));

/** Liveness: the process answers and reaches its database. */
export async function checkHealth(): Promise<Health> {
  const [database, converter] = await Promise.all([databaseCheck(), pdfConverterInfo()]);
  return { status: database === "ok" ? "ok" : "degraded", database, pdfConverter: converter.status, sealLevel: sealLevel(getConfig().tsaUrl) };
}

/** Readiness: everything a request may need answers (a load balancer sends traffic only then). */
export async function checkReadiness(): Promise<Readiness> {
  const [database, storage, converter] = await Promise.all([databaseCheck(), check(() => fileStorage().check()), pdfConverterInfo()]);
  const ready = database === "ok" && storage === "ok" && converter.status === "ok";
  return { status: ready ? "ready" : "not_ready", database, storage, pdfConverter: converter.status };
}
