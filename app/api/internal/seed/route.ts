// Lets `npm run seed` work while a server holds the embedded database. Guarded by a secret that
// only a process able to read DATA_DIR knows.
import { z } from "zod";
import { requireLocalSecret } from "@/lib/auth/local-secret";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { errorResponse } from "@/lib/http/errors";
import { parseJsonBody } from "@/lib/http/validation";
import { seedDemoWorkspace } from "@/lib/orgs/seed";
import { identityProviderInput, signingSettingsInput } from "@/lib/esign/settings";
import { observed } from "@/lib/http/observe";
import { jsonReply } from "@/lib/http/json-reply";

const bodySchema = z.object({
  baseUrl: z.string(),
  orgSlug: z
    .string()
    .regex(/^[a-z0-9-]{2,40}$/)
    .optional(),
  orgName: z.string().max(100).optional(),
  adminEmail: z.email().optional(),
  adminPassword: z.string().min(8),
  rateLimitPerMinute: z.number().int().positive().optional(),
  sampleTemplates: z.boolean().optional(),
  plan: z
    .object({
      hasFileDownload: z.boolean(),
      emailOtp: z.boolean(),
      smsOtp: z.boolean(),
      maxDeliverables: z.number().int().min(0),
      smsAllowance: z.number().int().min(0),
      rateLimitPerMinute: z.number().int().positive(),
      maxStorageBytes: z.number().int().min(0),
      signingReminderDays: z.number().int().min(0).max(365),
    })
    .partial()
    .optional(),
  signing: signingSettingsInput.optional(),
  identityProviders: z.array(identityProviderInput).optional(),
});

export const POST = observed(async function POST(req: Request): Promise<Response> {
  try {
    const config = getConfig();
    requireLocalSecret(req);
    const options = await parseJsonBody(bodySchema, req);
    return jsonReply(await seedDemoWorkspace(await db(), { ...options, instanceSecret: config.nextAuthSecret }));
  } catch (err) {
    return errorResponse(err, "deliverable");
  }
});
