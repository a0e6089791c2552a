-- AlterTable
ALTER TABLE "org_usage" ADD COLUMN     "templates" BIGINT NOT NULL DEFAULT 0;

-- Active templates are counted as well, so an unfiltered list of every template reads its total from
-- this row instead of counting them (issue 17). Same rule as the other counts: each write applies the
-- difference between a row's new and old contribution (an active template counts 1).
CREATE FUNCTION org_usage_add(org UUID, d_count BIGINT, d_bytes BIGINT, d_templates BIGINT) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  IF d_count <> 0 OR d_bytes <> 0 OR d_templates <> 0 THEN
    UPDATE "org_usage"
       SET "deliverables" = "deliverables" + d_count, "bytes" = "bytes" + d_bytes, "templates" = "templates" + d_templates
     WHERE "orgId" = org;
  END IF;
END $$;

CREATE OR REPLACE FUNCTION org_usage_deliverable() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."isActive" THEN
    PERFORM org_usage_add(OLD."orgId", -1, -(OLD."fileSize"::BIGINT + OLD."pdfSize"), 0);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."isActive" THEN
    PERFORM org_usage_add(NEW."orgId", 1, NEW."fileSize"::BIGINT + NEW."pdfSize", 0);
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION org_usage_template() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."isActive" THEN
    PERFORM org_usage_add(OLD."orgId", 0, -OLD."fileSize"::BIGINT, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."isActive" THEN
    PERFORM org_usage_add(NEW."orgId", 0, NEW."fileSize"::BIGINT, 1);
  END IF;
  RETURN NULL;
END $$;

DROP FUNCTION org_usage_add(UUID, BIGINT, BIGINT);

-- What is there already.
UPDATE "org_usage" u SET "templates" = (SELECT count(*) FROM "template" t WHERE t."orgId" = u."orgId" AND t."isActive");
