// How an organization's signing requests look to signers: the default language (issue 19 item 5).
import type { Db } from "@/lib/db/client";
import { type Language, languageOr } from "@/lib/i18n";

/** The language a send uses when it names none. */
export async function orgDefaultLanguage(db: Pick<Db, "organization">, orgId: string): Promise<Language> {
  const org = await db.organization.findUniqueOrThrow({ where: { id: orgId }, select: { defaultLanguage: true } });
  return languageOr(org.defaultLanguage);
}

export async function setDefaultLanguage(db: Pick<Db, "organization">, orgId: string, language: Language): Promise<void> {
  await db.organization.update({ where: { id: orgId }, data: { defaultLanguage: language } });
}
