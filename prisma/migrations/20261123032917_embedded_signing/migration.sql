-- AlterTable
ALTER TABLE "signing_recipient" ADD COLUMN     "lockedAt" TIMESTAMPTZ(3),
ADD COLUMN     "passcodeFailures" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "embedded_signing_settings" (
    "orgId" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "allowExternalIdv" BOOLEAN NOT NULL DEFAULT false,
    "allowIdentityOverride" BOOLEAN NOT NULL DEFAULT false,
    "defaultChannel" TEXT NOT NULL DEFAULT 'none',
    "allowChannelOverride" BOOLEAN NOT NULL DEFAULT true,
    "allowedFrameAncestors" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "smsApiBaseUrl" TEXT,
    "smsAccountSid" TEXT,
    "smsFrom" TEXT,
    "smsAuthTokenEnc" TEXT,
    "updatedOn" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "embedded_signing_settings_pkey" PRIMARY KEY ("orgId")
);

-- CreateTable
CREATE TABLE "identity_provider" (
    "id" UUID NOT NULL,
    "orgId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "jwksUrl" TEXT,
    "publicKeyPem" TEXT,
    "secretEnc" TEXT,
    "createdOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "identity_provider_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "used_identity_assertion" (
    "orgId" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "jti" TEXT NOT NULL,
    "usedOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "used_identity_assertion_pkey" PRIMARY KEY ("orgId","provider","jti")
);

-- CreateTable
CREATE TABLE "signer_passcode" (
    "id" UUID NOT NULL,
    "recipientId" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "wrongAttempts" INTEGER NOT NULL DEFAULT 0,
    "usedAt" TIMESTAMPTZ(3),
    "createdOn" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "signer_passcode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signing_url_grant" (
    "id" UUID NOT NULL,
    "recipientId" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "consumedAt" TIMESTAMPTZ(3),
    "createdOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signing_url_grant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signer_session" (
    "id" UUID NOT NULL,
    "recipientId" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signer_session_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "identity_provider_orgId_name_key" ON "identity_provider"("orgId", "name");

-- CreateIndex
CREATE INDEX "signer_passcode_recipientId_createdOn_idx" ON "signer_passcode"("recipientId", "createdOn");

-- CreateIndex
CREATE UNIQUE INDEX "signing_url_grant_tokenHash_key" ON "signing_url_grant"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "signer_session_tokenHash_key" ON "signer_session"("tokenHash");

-- AddForeignKey
ALTER TABLE "embedded_signing_settings" ADD CONSTRAINT "embedded_signing_settings_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "identity_provider" ADD CONSTRAINT "identity_provider_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "signer_passcode" ADD CONSTRAINT "signer_passcode_recipientId_fkey" FOREIGN KEY ("recipientId") REFERENCES "signing_recipient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "signing_url_grant" ADD CONSTRAINT "signing_url_grant_recipientId_fkey" FOREIGN KEY ("recipientId") REFERENCES "signing_recipient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "signer_session" ADD CONSTRAINT "signer_session_recipientId_fkey" FOREIGN KEY ("recipientId") REFERENCES "signing_recipient"("id") ON DELETE CASCADE ON UPDATE CASCADE;
