-- AlterEnum
ALTER TYPE "DocumentStatus" ADD VALUE 'declined';

-- AlterTable
ALTER TABLE "signing_document" ADD COLUMN     "declineReason" TEXT,
ADD COLUMN     "declinedAt" TIMESTAMPTZ(3),
ADD COLUMN     "declinedBy" UUID;
