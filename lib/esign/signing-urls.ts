// Signing URLs for embedded signing (docs/contract.md "Embedded signing"). otp/none: the recipient's reusable
// link. external_idv/override: a single-use grant, redeemed on open, about five minutes; for
// external_idv only after the client's identity assertion passes every check of docs/contract.md
// "External identity assertions".
import crypto from "node:crypto";
import { createRemoteJWKSet, decodeProtectedHeader, importSPKI, jwtVerify, type JWTPayload } from "jose";
import { now } from "@/lib/clock";
import { open } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import type { SqlRunner } from "@/lib/db/sql";
import { AUDIT_HEAD_JOIN, appendAuditAfter } from "@/lib/esign/audit";
import { checkReturnUrl, recipientStatuses } from "@/lib/esign/recipients";
import type { Actor, EsignDeps, RequestMeta } from "@/lib/esign/types";
import {
  DocumentNotFoundError,
  DocumentNotSignableError,
  RecipientAlreadySignedError,
  RecipientNotFoundError,
  RecipientNotInTurnError,
  SigningRuleError,
} from "@/lib/esign/errors";
import { resolveIdentity, settingsFromRow, smsPasscodesThisMonth, type ResolvedIdentity, type SigningSettingsRow } from "@/lib/esign/identity";
import { type DocumentStatus, Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { hashToken, signingLinkToken } from "@/lib/esign/tokens";
import { type CarriedRow, carriedAdmission, type FoldedAdmission } from "@/lib/auth/rate-limit";
import type { Plan } from "@/lib/auth/roles";
import { isUniqueViolation } from "@/lib/db/errors";

const SINGLE_USE_MINUTES = 5;

export interface SigningUrlInput {
  recipientId?: string;
  externalId?: string;
  returnUrl?: string;
  identityAssertion?: string;
}

export interface SigningUrlResult {
  url: string;
  expiresAt: string | null;
  recipientId: string;
  externalId: string | null;
  identityVerificationMode: ResolvedIdentity["mode"];
  pendingChecks: string[];
}

/** The URL a frame opens: `/sign/open?token=…` (the token rides in the query, per 2.11). */
export function signingUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/sign/open?token=${encodeURIComponent(token)}`;
}

export async function issueSigningUrl(
  deps: Pick<EsignDeps, "db" | "baseUrl" | "linkSecret"> & { sql: SqlRunner; instanceSecret: string },
  actor: Actor & { plan: Plan },
  documentId: string,
  input: SigningUrlInput,
  meta: RequestMeta,
  opts: { deprecatedLink?: boolean; admission?: FoldedAdmission } = {},
): Promise<SigningUrlResult> {
  if (Boolean(input.recipientId) === Boolean(input.externalId))
    throw new SigningRuleError("validation", "Give exactly one of recipientId or externalId", "RecipientSelectorInvalid");
  checkReturnUrl(input.returnUrl);
  // The plan comes with the caller, read a moment ago by the request's admission, or by this request's
  // first statement when it carries the admission (an integrator's hot path, ADR 0022).
  const { settings, doc, plan } = await loadContext(deps.sql, actor, documentId, opts.admission);
  if (!settings.enabled)
    throw new SigningRuleError("forbidden", "Embedded signing is not enabled for this organization (Settings → Embedded signing)", "EmbeddedSigningNotEnabled");
  if (!doc) throw new DocumentNotFoundError();
  const recipient = doc.recipients.find((r) => (input.recipientId ? r.id === input.recipientId : r.externalId === input.externalId));
  if (!recipient) throw new RecipientNotFoundError();

  // A signer who has signed is told so, whatever the document's state since (completed, voided).
  if (recipient.signedAt) throw new RecipientAlreadySignedError();
  if (doc.status !== "sent") throw new DocumentNotSignableError(doc.status);
  if (doc.expiresAt && doc.expiresAt <= now()) throw new DocumentNotSignableError("expired");
  const mine = recipientStatuses(doc.status, doc.recipients).find((r) => r.id === recipient.id)!;
  if (mine.status !== "ready") throw new RecipientNotInTurnError();

  const identity = await resolveIdentity(
    { settings, plan, automated: doc.automated, smsUsed: () => smsPasscodesThisMonth(deps.db, actor.orgId, now()) },
    recipient,
    "recipient",
  );
  const singleUse = identity.mode === "external_idv" || identity.mode === "override";
  if (singleUse && opts.deprecatedLink)
    throw new SigningRuleError(
      "conflict",
      "This recipient signs through a single-use URL: use POST /esign/documents/{id}/signing-url",
      "RecipientRequiresSingleUseUrl",
    );
  if (identity.mode === "external_idv") await checkAssertion(deps, actor.orgId, identity, recipient.email, input.identityAssertion);

  let token: string;
  let expiresAt: Date | null;
  if (singleUse) {
    token = crypto.randomBytes(32).toString("base64url");
    expiresAt = new Date(now().getTime() + SINGLE_USE_MINUTES * 60_000);
  } else {
    token = signingLinkToken(deps.linkSecret, recipient.id);
    expiresAt = doc.expiresAt;
  }
  // Set per request: a request without returnUrl clears the earlier one (4.3). The recipient's row and
  // the grant are written in the audit entry's statement, after its locks (the document's row first,
  // as every state change takes them), chained from the entry the context read: one round trip for the
  // change and its entry unless another entry came in between, since this is an integrator's hot path
  // (issue 17). The row is written only when its returnUrl changes: an integrator asks again and again
  // with the same one, and each needless write left a dead row version that the embedded database, which
  // has no autovacuum, scanned past until its next upkeep round.
  const changes = (entryWritten: Prisma.Sql) => [
    Prisma.sql`UPDATE "signing_recipient" SET "returnUrl" = ${input.returnUrl ?? null}
               WHERE "id" = ${recipient.id}::uuid AND "returnUrl" IS DISTINCT FROM ${input.returnUrl ?? null} AND ${entryWritten}`,
    ...(singleUse
      ? [
          Prisma.sql`INSERT INTO "signing_url_grant" ("id", "recipientId", "tokenHash", "mode", "expiresAt")
                     SELECT ${crypto.randomUUID()}::uuid, ${recipient.id}::uuid, ${hashToken(token)}, ${identity.mode}, ${expiresAt}::timestamptz WHERE ${entryWritten}`,
        ]
      : []),
  ];
  await appendAuditAfter(
    deps.sql,
    doc.id,
    doc.auditHead,
    {
      actionType: "signing_url_issued",
      recipientId: recipient.id,
      userId: actor.userId,
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: { mode: identity.mode, singleUse, ...(opts.deprecatedLink ? { endpoint: "signing-link (deprecated)" } : {}) },
    },
    changes,
  );
  return {
    url: signingUrl(deps.baseUrl, token),
    expiresAt: expiresAt?.toISOString() ?? null,
    recipientId: recipient.id,
    externalId: recipient.externalId,
    identityVerificationMode: identity.mode,
    pendingChecks: identity.mode === "otp" ? [`${identity.channel}_otp`] : [],
  };
}

type ContextRow = SigningSettingsRow & {
  hasSettings: boolean;
  identityProviders: string[] | null;
  docId: string | null;
  status: DocumentStatus;
  automated: boolean;
  expiresAt: Date | null;
  recipientId: string | null;
  name: string;
  email: string;
  phone: string | null;
  externalId: string | null;
  signingOrder: number;
  signedAt: Date | null;
  identityVerification: unknown;
  lastSeq: number | null;
  lastHash: string | null;
};

/**
 * The organization's signing settings and the document with its recipients (in signing order) and its
 * newest audit entry, in one statement: one row per recipient, or one row of settings alone when the
 * document is not the organization's (a null document).
 */
async function loadContext(sql: SqlRunner, actor: { orgId: string; plan: Plan }, documentId: string, admission?: FoldedAdmission) {
  const carried = carriedAdmission(admission, 3, actor.plan);
  const rows = await sql.query<ContextRow & CarriedRow>(
    `${carried.with}
     SELECT s."orgId" IS NOT NULL AS "hasSettings", s."enabled", s."allowExternalIdv", s."allowIdentityOverride", s."defaultChannel",
            s."allowChannelOverride", s."allowedFrameAncestors", s."smsApiBaseUrl", s."smsAccountSid", s."smsFrom", s."smsAuthTokenEnc",
            (SELECT array_agg(p."name" ORDER BY p."name") FROM "identity_provider" p WHERE p."orgId" = $1) AS "identityProviders",
            d."id" AS "docId", d."status", d."automated", d."expiresAt",
            r."id" AS "recipientId", r."name", r."email", r."phone", r."externalId", r."signingOrder", r."signedAt", r."identityVerification",
            head."lastSeq", head."lastHash"${carried.column}
       FROM (SELECT 1) AS one
       LEFT JOIN "embedded_signing_settings" s ON s."orgId" = $1
       LEFT JOIN "signing_document" d ON d."id" = $2 AND d."orgId" = $1
       ${AUDIT_HEAD_JOIN}
       LEFT JOIN "signing_recipient" r ON r."documentId" = d."id"
      ORDER BY r."signingOrder", r."createdOn"`,
    [actor.orgId, isUuid(documentId) ? documentId : null, ...carried.params],
  );
  const first = rows[0];
  const plan = await carried.plan(first);
  const settings = settingsFromRow(first.hasSettings ? first : null, first.identityProviders ?? []);
  if (!first.docId) return { settings, doc: null, plan };
  const recipients = rows
    .filter((r) => r.recipientId)
    .map((r) => ({
      id: r.recipientId!,
      name: r.name,
      email: r.email,
      phone: r.phone,
      externalId: r.externalId,
      signingOrder: r.signingOrder,
      signedAt: r.signedAt,
      identityVerification: r.identityVerification,
    }));
  const auditHead = first.lastSeq === null || first.lastHash === null ? null : { seq: first.lastSeq, currentHash: first.lastHash };
  return {
    settings,
    doc: { id: first.docId, status: first.status, automated: first.automated, expiresAt: first.expiresAt, recipients, auditHead },
    plan,
  };
}

const assertionError = (code: string, message: string) => new SigningRuleError("validation", message, code);

/** docs/contract.md "External identity assertions": signature, iss, email, iat, jti — in that order. */
async function checkAssertion(
  deps: { db: Db; instanceSecret: string },
  orgId: string,
  identity: ResolvedIdentity,
  email: string,
  assertion: string | undefined,
): Promise<void> {
  if (!assertion) throw assertionError("IdentityAssertionRequired", "This recipient needs an identityAssertion from your identity provider");
  const provider = await deps.db.identityProvider.findUnique({ where: { orgId_name: { orgId, name: identity.provider! } } });
  if (!provider) throw new SigningRuleError("validation", `Identity provider "${identity.provider}" is not registered`, "IdentityConfigInvalid");
  let claims: JWTPayload;
  try {
    const alg = decodeProtectedHeader(assertion).alg;
    const options = { algorithms: provider.kind === "hs256" ? ["HS256"] : ["RS256", "ES256"], clockTolerance: 60, currentDate: now() };
    if (provider.kind === "hs256")
      claims = (await jwtVerify(assertion, new TextEncoder().encode(open(deps.instanceSecret, provider.secretEnc!)), options)).payload;
    else if (provider.kind === "pem")
      claims = (await jwtVerify(assertion, await importSPKI(provider.publicKeyPem!, alg === "ES256" ? "ES256" : "RS256"), options)).payload;
    else claims = (await jwtVerify(assertion, createRemoteJWKSet(new URL(provider.jwksUrl!)), options)).payload;
  } catch {
    throw assertionError("IdentityAssertionInvalid", "The identity assertion's signature could not be verified with the provider's key");
  }
  if (claims.iss !== identity.provider)
    throw assertionError(
      "IdentityProviderMismatch",
      `The assertion was issued by "${claims.iss ?? "(none)"}", not by the recipient's provider "${identity.provider}"`,
    );
  if (typeof claims.email !== "string" || claims.email.toLowerCase() !== email.toLowerCase())
    throw assertionError("IdentityEmailMismatch", "The assertion is for a different email than the recipient's");
  const ageSeconds = now().getTime() / 1000 - (claims.iat ?? 0);
  if (typeof claims.iat !== "number" || ageSeconds > identity.maxAgeMinutes! * 60 || ageSeconds < -60)
    throw assertionError("IdentityAssertionStale", `The person was verified more than ${identity.maxAgeMinutes} minutes ago`);
  if (typeof claims.jti !== "string" || !claims.jti) throw assertionError("IdentityAssertionInvalid", "The assertion has no jti");
  try {
    await deps.db.usedIdentityAssertion.create({ data: { orgId, provider: identity.provider!, jti: claims.jti } });
  } catch (err) {
    if (isUniqueViolation(err)) throw assertionError("IdentityAssertionReused", "This identity assertion was already used");
    throw err;
  }
}
