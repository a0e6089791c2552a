import { ForbiddenError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";

export type { Role };
export const ROLES = ["administrator", "contributor", "user", "viewer"] as const satisfies readonly Role[];

/** Role sets named after what they allow (docs/contract.md "Authentication and roles"). */
export const ANY_ROLE: readonly Role[] = ROLES;
export const WRITERS: readonly Role[] = ["administrator", "contributor", "user"];
export const SENDERS: readonly Role[] = ["administrator", "contributor"];
export const ADMINS: readonly Role[] = ["administrator"];

export const LICENSE_FEATURES = ["hasFileDownload", "emailOtp", "smsOtp"] as const;
export type LicenseFeature = (typeof LICENSE_FEATURES)[number];

export interface Plan {
  hasFileDownload: boolean;
  emailOtp: boolean;
  smsOtp: boolean;
  maxDeliverables: number;
  maxStorageBytes: bigint;
  smsAllowance: number;
  rateLimitPerMinute: number;
}

/** The same plan, field by field. */
export function samePlan(a: Plan, b: Plan): boolean {
  return (Object.keys(a) as (keyof Plan)[]).every((field) => a[field] === b[field]);
}

export function requireRole(role: Role, allowed: readonly Role[]): void {
  if (!allowed.includes(role)) throw new ForbiddenError(`This action requires one of the roles: ${allowed.join(", ")}`, "MissingRole");
}

export function requireFeature(plan: Plan, feature: LicenseFeature): void {
  if (!plan[feature]) throw new ForbiddenError(`Your plan does not include the license feature ${feature}`, "LicenseFeatureMissing");
}
