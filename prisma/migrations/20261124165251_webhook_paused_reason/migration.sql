-- AlterTable
ALTER TABLE "webhook" ADD COLUMN     "pausedReason" TEXT;
