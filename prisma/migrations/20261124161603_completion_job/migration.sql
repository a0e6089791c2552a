-- CreateTable
CREATE TABLE "completion_job" (
    "documentId" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" TIMESTAMPTZ(3),
    "lastError" TEXT,
    "createdOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedOn" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "completion_job_pkey" PRIMARY KEY ("documentId")
);

-- CreateIndex
CREATE INDEX "completion_job_status_nextAttemptAt_idx" ON "completion_job"("status", "nextAttemptAt");

-- AddForeignKey
ALTER TABLE "completion_job" ADD CONSTRAINT "completion_job_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "signing_document"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Documents every signer signed but that never completed (a crash or a sealing error before this
-- table existed): queue them, so the worker finishes them.
INSERT INTO "completion_job" ("documentId", "updatedOn")
SELECT d."id", CURRENT_TIMESTAMP FROM "signing_document" d
WHERE d."status" = 'sent'
  AND EXISTS (SELECT 1 FROM "signing_recipient" r WHERE r."documentId" = d."id")
  AND NOT EXISTS (SELECT 1 FROM "signing_recipient" r WHERE r."documentId" = d."id" AND r."signedAt" IS NULL);
