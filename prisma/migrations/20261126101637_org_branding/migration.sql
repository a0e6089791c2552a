-- CreateTable
CREATE TABLE "org_branding" (
    "orgId" UUID NOT NULL,
    "logo" TEXT,
    "logoType" TEXT,
    "logoHash" TEXT,
    "accent" TEXT,
    "senderName" TEXT,
    "emailFooter" TEXT,
    "updatedOn" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "org_branding_pkey" PRIMARY KEY ("orgId")
);

-- CreateIndex
CREATE INDEX "org_branding_logoHash_idx" ON "org_branding"("logoHash");

-- AddForeignKey
ALTER TABLE "org_branding" ADD CONSTRAINT "org_branding_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
