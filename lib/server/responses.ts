// Response shapes of the service endpoints: health, readiness and the key's own identity.
import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";

const check = z.enum(["ok", "unavailable"]);

export const healthSchema = z
  .object({
    status: z.enum(["ok", "degraded"]),
    database: check,
    pdfConverter: check,
    sealLevel: z
      .enum(["PAdES-B-B", "PAdES-B-LT"])
      .meta({ description: "The PAdES baseline level of completed documents' seals: B-LT when a time-stamping service (TSA_URL) is configured" }),
  })
  .meta({ id: "Health" });
export const readinessSchema = z
  .object({ status: z.enum(["ready", "not_ready"]), database: check, storage: check, pdfConverter: check })
  .meta({ id: "Readiness" });
export const whoamiSchema = z
  .object({ orgId: z.string(), role: z.enum(ROLES), keyPrefix: z.string().meta({ description: "The key's first characters, as the dashboard lists it" }) })
  .meta({ id: "WhoAmI" });
