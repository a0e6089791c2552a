import type { Plan } from "@/lib/auth/roles";
import type { Db } from "@/lib/db/client";

export async function loadPlan(db: Db, orgId: string): Promise<Plan> {
  const org = await db.organization.findUniqueOrThrow({ where: { id: orgId } });
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
