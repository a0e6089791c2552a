-- AlterTable
ALTER TABLE "org_usage" ADD COLUMN     "documents" BIGINT NOT NULL DEFAULT 0;

-- Signing documents are counted too, in every state, so the unfiltered document list reads its total
-- from this row instead of counting them (issue 17: a count grows with the organization's documents,
-- 0.2-0.3 ms for 1,000 on the embedded database). A document is inserted or deleted (a draft), never
-- moved to another organization; an update of its organization is counted as a move all the same.
-- Deletes only update, as for the other counts (an organization being deleted takes its row with it).
CREATE FUNCTION org_usage_document() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "org_usage" SET "documents" = "documents" - 1 WHERE "orgId" = OLD."orgId";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE "org_usage" SET "documents" = "documents" + 1 WHERE "orgId" = NEW."orgId";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER org_usage_document AFTER INSERT OR DELETE OR UPDATE OF "orgId" ON "signing_document"
  FOR EACH ROW EXECUTE FUNCTION org_usage_document();

-- What is there already.
UPDATE "org_usage" u SET "documents" = (SELECT count(*) FROM "signing_document" d WHERE d."orgId" = u."orgId");
