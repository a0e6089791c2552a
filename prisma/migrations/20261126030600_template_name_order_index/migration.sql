-- The template list sorted by name (the default) reads its page off this index instead of sorting
-- every template of the organization. An expression index: Prisma's schema cannot declare it, so it
-- lives in this migration only (prisma/schema.prisma says so beside the model).
CREATE INDEX "template_orgId_lower_name_id_idx" ON "template" ("orgId", lower("name"), "id") WHERE "isActive";
