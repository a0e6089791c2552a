import type { Plan } from "@/lib/auth/roles";
import type { Db } from "@/lib/db/client";

type PlanColumns = Plan;

/** The plan carried on an organization row. */
export function planOf(org: PlanColumns): Plan {
  return {
    hasFileDownload: org.hasFileDownload,
    emailOtp: org.emailOtp,
    smsOtp: org.smsOtp,
    maxDeliverables: org.maxDeliverables,
    maxStorageBytes: org.maxStorageBytes,
    smsAllowance: org.smsAllowance,
    rateLimitPerMinute: org.rateLimitPerMinute,
  };
}

export async function loadPlan(db: Pick<Db, "organization">, orgId: string): Promise<Plan> {
  return planOf(await db.organization.findUniqueOrThrow({ where: { id: orgId } }));
}
