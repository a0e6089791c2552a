// API authentication per interface.md section 5: `Authorization: Bearer <key>` names the key,
// `x-service-org-id` must name the key's own organization.
import { resolveApiKey, type ApiPrincipal } from "@/lib/auth/api-keys";
import { consumeRateLimit } from "@/lib/auth/rate-limit";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { ForbiddenError, UnauthenticatedError } from "@/lib/errors";

export const ORG_HEADER = "x-service-org-id";
/** The hosted service's name for the same header (decisions.md "Clients of the hosted service"). */
export const ORG_HEADER_ALIAS = "x-rapiddocx-org-id";

export async function authenticateApiRequest(headers: Headers): Promise<ApiPrincipal> {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.get("authorization") ?? "");
  if (!match) throw new UnauthenticatedError("Missing or malformed Authorization header; expected: Bearer <API key>");
  const client = await db();
  const principal = await resolveApiKey(client, match[1]);

  const orgId = (headers.get(ORG_HEADER) ?? headers.get(ORG_HEADER_ALIAS))?.trim();
  if (!orgId) throw new UnauthenticatedError(`Missing ${ORG_HEADER} header; the organization cannot be resolved`);
  if (orgId.toLowerCase() !== principal.orgId) throw new ForbiddenError("Invalid organization id", "InvalidOrganization");

  if (!getConfig().rateLimitDisabled) {
    await consumeRateLimit(client, principal.keyId, principal.plan.rateLimitPerMinute);
  }
  return principal;
}
