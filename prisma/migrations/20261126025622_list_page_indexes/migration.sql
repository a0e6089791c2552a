-- DropIndex
DROP INDEX "deliverable_orgId_isActive_createdOn_idx";

-- DropIndex
DROP INDEX "signing_document_orgId_createdOn_idx";

-- CreateIndex
CREATE INDEX "deliverable_orgId_isActive_createdOn_id_idx" ON "deliverable"("orgId", "isActive", "createdOn", "id");

-- CreateIndex
CREATE INDEX "signing_document_orgId_createdOn_id_idx" ON "signing_document"("orgId", "createdOn", "id");
