// The order a document's fields are shown and walked in, wherever they are read: as one reads the
// pages (page, then top to bottom, then left to right), the id deciding between fields in one place.
import type { Prisma } from "@/lib/generated/prisma/client";

export const FIELD_READING_ORDER: Prisma.SigningFieldOrderByWithRelationInput[] = [{ page: "asc" }, { y: "asc" }, { x: "asc" }, { id: "asc" }];
