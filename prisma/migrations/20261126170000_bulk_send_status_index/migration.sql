-- CreateIndex
CREATE INDEX "bulk_send_status_idx" ON "bulk_send"("status");
