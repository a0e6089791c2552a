-- AlterTable
ALTER TABLE "audit_entry" ADD COLUMN     "hashVersion" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "userId" UUID;
