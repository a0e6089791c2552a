-- AlterTable
ALTER TABLE "bulk_send" ADD COLUMN     "finishedAt" TIMESTAMPTZ(3),
ADD COLUMN     "ip" TEXT,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'sending',
ADD COLUMN     "userAgent" TEXT;

-- AlterTable
ALTER TABLE "bulk_send_row" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "leaseUntil" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "bulk_send_row_status_leaseUntil_idx" ON "bulk_send_row"("status", "leaseUntil");

-- Batches recorded before the worker: rows left sending by a stopped process go back to the queue,
-- every row still to send gets the id of its document, and finished batches are marked done.
UPDATE "bulk_send_row" SET "status" = 'queued' WHERE "status" = 'sending';
UPDATE "bulk_send_row" SET "documentId" = gen_random_uuid() WHERE "status" = 'queued' AND "documentId" IS NULL;
UPDATE "bulk_send" b SET "status" = 'done', "finishedAt" = CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM "bulk_send_row" r WHERE r."bulkSendId" = b."id" AND r."status" IN ('queued', 'sending'));
