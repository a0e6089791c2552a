/** A unique constraint said no (Prisma's P2002; through driver adapters the cause may be PostgreSQL's 23505). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; meta?: { driverAdapterError?: { cause?: { originalCode?: string; kind?: string } } }; message?: string };
  if (e?.code === "P2002") return true;
  const cause = e?.meta?.driverAdapterError?.cause;
  return cause?.originalCode === "23505" || cause?.kind === "UniqueConstraintViolation" || /Unique constraint/i.test(e?.message ?? "");
}
