-- AlterTable
ALTER TABLE "signing_field" ADD COLUMN     "anchorRect" JSONB;
