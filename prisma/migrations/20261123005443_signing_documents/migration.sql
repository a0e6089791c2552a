-- CreateEnum
CREATE TYPE "DocumentStatus" AS ENUM ('draft', 'sent', 'completed', 'voided');

-- CreateTable
CREATE TABLE "signing_document" (
    "id" UUID NOT NULL,
    "orgId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" "DocumentStatus" NOT NULL DEFAULT 'draft',
    "sourceKind" TEXT NOT NULL,
    "sourceRef" TEXT,
    "originalPdfKey" TEXT NOT NULL,
    "originalHash" TEXT NOT NULL,
    "pageCount" INTEGER NOT NULL,
    "signedPdfKey" TEXT,
    "senderName" TEXT,
    "senderEmail" TEXT,
    "ccEmails" JSONB NOT NULL DEFAULT '[]',
    "sendEmail" BOOLEAN NOT NULL DEFAULT true,
    "automated" BOOLEAN NOT NULL DEFAULT false,
    "expiresAt" TIMESTAMPTZ(3),
    "createdBy" UUID NOT NULL,
    "createdOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedOn" TIMESTAMPTZ(3) NOT NULL,
    "sentAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),
    "voidedAt" TIMESTAMPTZ(3),
    "voidReason" TEXT,

    CONSTRAINT "signing_document_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signing_recipient" (
    "id" UUID NOT NULL,
    "documentId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "phone" TEXT,
    "externalId" TEXT,
    "signingOrder" INTEGER NOT NULL,
    "identityVerification" JSONB,
    "returnUrl" TEXT,
    "accessTokenHash" TEXT NOT NULL,
    "viewedAt" TIMESTAMPTZ(3),
    "signedAt" TIMESTAMPTZ(3),
    "signedIp" TEXT,
    "signedUserAgent" TEXT,
    "verificationUsed" TEXT,
    "createdOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signing_recipient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signing_field" (
    "id" UUID NOT NULL,
    "documentId" UUID NOT NULL,
    "recipientId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "page" INTEGER NOT NULL,
    "x" DOUBLE PRECISION NOT NULL,
    "y" DOUBLE PRECISION NOT NULL,
    "width" DOUBLE PRECISION NOT NULL,
    "height" DOUBLE PRECISION NOT NULL,
    "required" BOOLEAN NOT NULL DEFAULT true,
    "defaultValue" TEXT,
    "isReadonly" BOOLEAN NOT NULL DEFAULT false,
    "isMultiline" BOOLEAN NOT NULL DEFAULT false,
    "anchor" TEXT,
    "value" TEXT,

    CONSTRAINT "signing_field_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_entry" (
    "id" UUID NOT NULL,
    "documentId" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "actionType" TEXT NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "recipientId" UUID,
    "ip" TEXT,
    "userAgent" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "previousHash" TEXT NOT NULL,
    "currentHash" TEXT NOT NULL,

    CONSTRAINT "audit_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_message" (
    "id" UUID NOT NULL,
    "orgId" UUID,
    "kind" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "cc" JSONB NOT NULL DEFAULT '[]',
    "fromAddress" TEXT NOT NULL,
    "replyTo" TEXT,
    "subject" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "documentId" UUID,
    "transport" TEXT NOT NULL,
    "sentAt" TIMESTAMPTZ(3),
    "error" TEXT,
    "createdOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "domain_event" (
    "id" UUID NOT NULL,
    "orgId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "createdOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processedAt" TIMESTAMPTZ(3),

    CONSTRAINT "domain_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "signing_document_orgId_createdOn_idx" ON "signing_document"("orgId", "createdOn");

-- CreateIndex
CREATE INDEX "signing_document_orgId_status_idx" ON "signing_document"("orgId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "signing_recipient_accessTokenHash_key" ON "signing_recipient"("accessTokenHash");

-- CreateIndex
CREATE INDEX "signing_recipient_documentId_signingOrder_idx" ON "signing_recipient"("documentId", "signingOrder");

-- CreateIndex
CREATE UNIQUE INDEX "signing_recipient_documentId_externalId_key" ON "signing_recipient"("documentId", "externalId");

-- CreateIndex
CREATE INDEX "signing_field_documentId_idx" ON "signing_field"("documentId");

-- CreateIndex
CREATE UNIQUE INDEX "audit_entry_documentId_seq_key" ON "audit_entry"("documentId", "seq");

-- CreateIndex
CREATE INDEX "outbox_message_orgId_createdOn_idx" ON "outbox_message"("orgId", "createdOn");

-- CreateIndex
CREATE INDEX "outbox_message_to_createdOn_idx" ON "outbox_message"("to", "createdOn");

-- CreateIndex
CREATE INDEX "domain_event_processedAt_createdOn_idx" ON "domain_event"("processedAt", "createdOn");

-- AddForeignKey
ALTER TABLE "signing_document" ADD CONSTRAINT "signing_document_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "signing_document" ADD CONSTRAINT "signing_document_createdBy_fkey" FOREIGN KEY ("createdBy") REFERENCES "user"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "signing_recipient" ADD CONSTRAINT "signing_recipient_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "signing_document"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "signing_field" ADD CONSTRAINT "signing_field_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "signing_document"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "signing_field" ADD CONSTRAINT "signing_field_recipientId_fkey" FOREIGN KEY ("recipientId") REFERENCES "signing_recipient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_entry" ADD CONSTRAINT "audit_entry_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "signing_document"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbox_message" ADD CONSTRAINT "outbox_message_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "domain_event" ADD CONSTRAINT "domain_event_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
