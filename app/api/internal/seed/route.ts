// Lets `npm run seed` work while a server holds the embedded database. Guarded by a secret that
// only a process able to read DATA_DIR knows.
import crypto from "node:crypto";
import { z } from "zod";
import { getConfig, persistedSecret } from "@/lib/config";
import { db } from "@/lib/db/client";
import { errorResponse } from "@/lib/http/errors";
import { parseJsonBody } from "@/lib/http/validation";
import { UnauthenticatedError } from "@/lib/errors";
import { seedDemoWorkspace } from "@/lib/orgs/seed";
import { identityProviderInput, signingSettingsInput } from "@/lib/esign/settings";

const bodySchema = z.object({
  baseUrl: z.string(),
  orgSlug: z.string().regex(/^[a-z0-9-]{2,40}$/).optional(),
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
    })
    .partial()
    .optional(),
  signing: signingSettingsInput.optional(),
  identityProviders: z.array(identityProviderInput).optional(),
});

function sameSecret(presented: string, expected: string): boolean {
  const a = crypto.createHash("sha256").update(presented).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export async function POST(req: Request): Promise<Response> {
  try {
    const config = getConfig();
    const presented = req.headers.get("x-quire-local-secret") ?? "";
    if (!sameSecret(presented, persistedSecret(config.dataDir, "localAdminSecret"))) throw new UnauthenticatedError();
    const options = await parseJsonBody(bodySchema, req);
    return Response.json(await seedDemoWorkspace(await db(), { ...options, instanceSecret: config.nextAuthSecret }));
  } catch (err) {
    return errorResponse(err, "deliverable");
  }
}
