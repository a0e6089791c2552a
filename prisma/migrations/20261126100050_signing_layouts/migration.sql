-- CreateTable
CREATE TABLE "signing_layout" (
    "id" UUID NOT NULL,
    "orgId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "sourceKind" TEXT NOT NULL,
    "sourceRef" TEXT,
    "pdfKey" TEXT NOT NULL,
    "pageCount" INTEGER NOT NULL,
    "roles" JSONB NOT NULL,
    "fields" JSONB NOT NULL,
    "createdBy" UUID NOT NULL,
    "createdOn" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signing_layout_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "signing_layout_orgId_createdOn_id_idx" ON "signing_layout"("orgId", "createdOn", "id");

-- AddForeignKey
ALTER TABLE "signing_layout" ADD CONSTRAINT "signing_layout_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "signing_layout" ADD CONSTRAINT "signing_layout_createdBy_fkey" FOREIGN KEY ("createdBy") REFERENCES "user"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
