-- AlterTable
ALTER TABLE "organization" ADD COLUMN     "defaultLanguage" TEXT NOT NULL DEFAULT 'en';

-- AlterTable
ALTER TABLE "signing_document" ADD COLUMN     "language" TEXT NOT NULL DEFAULT 'en';
