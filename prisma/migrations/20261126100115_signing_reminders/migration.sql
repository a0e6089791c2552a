-- AlterTable
ALTER TABLE "organization" ADD COLUMN     "signingReminderDays" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "signing_document" ADD COLUMN     "emailMessage" TEXT,
ADD COLUMN     "emailSubject" TEXT,
ADD COLUMN     "expiryWarningAt" TIMESTAMPTZ(3),
ADD COLUMN     "reminderDays" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "signing_recipient" ADD COLUMN     "nextReminderAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "signing_document_expiryWarningAt_idx" ON "signing_document"("expiryWarningAt");

-- CreateIndex
CREATE INDEX "signing_recipient_nextReminderAt_idx" ON "signing_recipient"("nextReminderAt");
