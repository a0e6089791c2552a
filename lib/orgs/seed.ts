// The demo workspace: one organization with a generous plan, one administrator login and one
// API key per role. Idempotent: a rerun reuses the organization and user and rotates the keys
// (only hashes are stored, so printing working keys again means issuing new ones).
import {
  addIdentityProvider,
  identityProviderInput,
  signingSettingsInput,
  updateSigningSettings,
  type IdentityProviderInput,
  type SigningSettingsInput,
} from "@/lib/esign/settings";
import { createApiKey } from "@/lib/auth/api-keys";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { ROLES, type Role } from "@/lib/auth/roles";
import type { Db } from "@/lib/db/client";
import { fileStorage } from "@/lib/storage";
import { installSampleTemplates } from "@/lib/templates/sample-workspace";

export interface SeedOptions {
  baseUrl: string;
  orgSlug?: string;
  orgName?: string;
  adminEmail?: string;
  adminPassword: string;
  rateLimitPerMinute?: number;
  /** Add the sample templates (default: only for the demo workspace). */
  sampleTemplates?: boolean;
  /** Plan overrides, e.g. { "hasFileDownload": false, "maxDeliverables": 1 } (operators and tests). */
  plan?: Partial<
    Record<"hasFileDownload" | "emailOtp" | "smsOtp", boolean> &
      Record<"maxDeliverables" | "smsAllowance" | "rateLimitPerMinute" | "maxStorageBytes" | "signingReminderDays", number>
  >;
  /** Embedded signing settings to apply (see lib/esign/settings.ts), e.g. { "enabled": true }. */
  signing?: SigningSettingsInput;
  /** Identity providers to (re)register by name. */
  identityProviders?: IdentityProviderInput[];
  /** Seals secrets in the settings (the instance secret). */
  instanceSecret?: string;
}

export interface SeedResult {
  baseUrl: string;
  orgId: string;
  keys: Record<Role, string>;
  login: { email: string; password: string };
}

const SEED_KEY_PREFIX = "Seed key: ";

export async function seedDemoWorkspace(db: Db, options: SeedOptions): Promise<SeedResult> {
  const slug = options.orgSlug ?? "demo";
  const email = (options.adminEmail ?? (slug === "demo" ? "admin@quire.local" : `admin@${slug}.quire.local`)).toLowerCase();
  const plan = {
    hasFileDownload: true,
    emailOtp: true,
    smsOtp: true,
    maxDeliverables: 100_000,
    maxStorageBytes: BigInt(50) * BigInt(1024 ** 3),
    smsAllowance: 1_000,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 6_000,
    ...options.plan,
    ...(options.plan?.maxStorageBytes !== undefined ? { maxStorageBytes: BigInt(options.plan.maxStorageBytes) } : {}),
  };
  const org = await db.organization.upsert({
    where: { slug },
    create: { slug, name: options.orgName ?? "Demo Workspace", ...plan },
    update: { rateLimitPerMinute: plan.rateLimitPerMinute, ...(options.plan ? plan : {}) },
  });

  let user = await db.user.findUnique({ where: { email } });
  if (!user) {
    user = await db.user.create({
      data: { email, name: "Demo Admin", passwordHash: await hashPassword(options.adminPassword) },
    });
  } else if (!(await verifyPassword(options.adminPassword, user.passwordHash))) {
    user = await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(options.adminPassword) } });
  }
  await db.membership.upsert({
    where: { userId_orgId: { userId: user.id, orgId: org.id } },
    create: { userId: user.id, orgId: org.id, role: "administrator" },
    update: { role: "administrator" },
  });

  // The demo workspace can embed signing from its own origin out of the box; others start off.
  if (slug === "demo" && !(await db.embeddedSigningSettings.findUnique({ where: { orgId: org.id } }))) {
    await updateSigningSettings(
      db,
      org.id,
      {
        enabled: true,
        allowExternalIdv: true,
        allowIdentityOverride: true,
        allowedFrameAncestors: [new URL(options.baseUrl).origin],
        sms: { provider: "outbox" },
      },
      options.instanceSecret ?? "",
    );
  }
  if (options.signing) await updateSigningSettings(db, org.id, signingSettingsInput.parse(options.signing), options.instanceSecret ?? "");
  for (const provider of options.identityProviders ?? []) {
    await db.identityProvider.deleteMany({ where: { orgId: org.id, name: provider.name } });
    await addIdentityProvider(db, org.id, identityProviderInput.parse(provider), options.instanceSecret ?? "");
  }

  if (options.sampleTemplates ?? slug === "demo") await installSampleTemplates(db, fileStorage(), { orgId: org.id, userId: user.id });

  await db.apiKey.deleteMany({ where: { orgId: org.id, name: { startsWith: SEED_KEY_PREFIX } } });
  const keys = {} as Record<Role, string>;
  for (const role of ROLES) {
    const { key } = await createApiKey(db, { orgId: org.id, userId: user.id, role, name: `${SEED_KEY_PREFIX}${role}` });
    keys[role] = key;
  }
  return { baseUrl: options.baseUrl, orgId: org.id, keys, login: { email, password: options.adminPassword } };
}
