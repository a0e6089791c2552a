-- CreateTable
CREATE TABLE "bulk_send" (
    "id" UUID NOT NULL,
    "orgId" UUID NOT NULL,
    "layoutId" UUID NOT NULL,
    "sendEmail" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" UUID NOT NULL,
    "createdOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bulk_send_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bulk_send_row" (
    "id" UUID NOT NULL,
    "bulkSendId" UUID NOT NULL,
    "rowNumber" INTEGER NOT NULL,
    "recipients" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "documentId" UUID,
    "updatedOn" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "bulk_send_row_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "bulk_send_orgId_createdOn_idx" ON "bulk_send"("orgId", "createdOn");

-- CreateIndex
CREATE INDEX "bulk_send_row_bulkSendId_status_idx" ON "bulk_send_row"("bulkSendId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "bulk_send_row_bulkSendId_rowNumber_key" ON "bulk_send_row"("bulkSendId", "rowNumber");

-- AddForeignKey
ALTER TABLE "bulk_send_row" ADD CONSTRAINT "bulk_send_row_bulkSendId_fkey" FOREIGN KEY ("bulkSendId") REFERENCES "bulk_send"("id") ON DELETE CASCADE ON UPDATE CASCADE;
