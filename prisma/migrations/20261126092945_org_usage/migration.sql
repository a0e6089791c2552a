-- CreateTable
CREATE TABLE "org_usage" (
    "orgId" UUID NOT NULL,
    "deliverables" BIGINT NOT NULL DEFAULT 0,
    "bytes" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "org_usage_pkey" PRIMARY KEY ("orgId")
);

-- AddForeignKey
ALTER TABLE "org_usage" ADD CONSTRAINT "org_usage_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Kept by triggers (hand-written; Prisma does not model them). A row's contribution: an active
-- deliverable counts 1 and its source + PDF bytes; an active template its file's bytes. Each write
-- applies the difference between its new and old contribution. Deletes only update (an
-- organization being deleted takes its usage row with it; a cascade must not insert it again).
CREATE FUNCTION org_usage_add(org UUID, d_count BIGINT, d_bytes BIGINT) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  IF d_count <> 0 OR d_bytes <> 0 THEN
    UPDATE "org_usage" SET "deliverables" = "deliverables" + d_count, "bytes" = "bytes" + d_bytes WHERE "orgId" = org;
  END IF;
END $$;

CREATE FUNCTION org_usage_deliverable() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."isActive" THEN
    PERFORM org_usage_add(OLD."orgId", -1, -(OLD."fileSize"::BIGINT + OLD."pdfSize"));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."isActive" THEN
    PERFORM org_usage_add(NEW."orgId", 1, NEW."fileSize"::BIGINT + NEW."pdfSize");
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION org_usage_template() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."isActive" THEN
    PERFORM org_usage_add(OLD."orgId", 0, -OLD."fileSize"::BIGINT);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."isActive" THEN
    PERFORM org_usage_add(NEW."orgId", 0, NEW."fileSize"::BIGINT);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION org_usage_organization() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "org_usage" ("orgId") VALUES (NEW."id") ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER org_usage_organization AFTER INSERT ON "organization" FOR EACH ROW EXECUTE FUNCTION org_usage_organization();
-- Only the columns that change a contribution fire the update triggers (renames and tags do not).
CREATE TRIGGER org_usage_deliverable AFTER INSERT OR DELETE OR UPDATE OF "isActive", "fileSize", "pdfSize", "orgId" ON "deliverable"
  FOR EACH ROW EXECUTE FUNCTION org_usage_deliverable();
CREATE TRIGGER org_usage_template AFTER INSERT OR DELETE OR UPDATE OF "isActive", "fileSize", "orgId" ON "template"
  FOR EACH ROW EXECUTE FUNCTION org_usage_template();

-- What is there already.
INSERT INTO "org_usage" ("orgId", "deliverables", "bytes")
SELECT o."id",
       (SELECT count(*) FROM "deliverable" d WHERE d."orgId" = o."id" AND d."isActive"),
       (SELECT COALESCE(sum(d."fileSize"::BIGINT + d."pdfSize"), 0) FROM "deliverable" d WHERE d."orgId" = o."id" AND d."isActive")
     + (SELECT COALESCE(sum(t."fileSize"::BIGINT), 0) FROM "template" t WHERE t."orgId" = o."id" AND t."isActive")
FROM "organization" o;
