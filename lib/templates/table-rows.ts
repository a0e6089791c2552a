// Which placeholders of a template share one table row (an item's name, quantity and price), so the
// Generate form can offer one "repeat this row" instead of a repeat per column. Read from the stored
// template's XML: a row is <w:tr> in Word, <a:tr> in PowerPoint; a tag split across runs is whole again
// once the XML tags are removed.
import { buffer } from "node:stream/consumers";
import PizZip from "pizzip";
import type { Db } from "@/lib/db/client";
import type { FileStorage } from "@/lib/storage";
import type { TemplateKind } from "@/lib/templates/inspect";
import { templateFile } from "@/lib/templates/templates";

const PARTS: Record<TemplateKind, RegExp> = {
  docx: /^word\/(document|header\d*|footer\d*)\.xml$/,
  pptx: /^ppt\/slides\/slide\d+\.xml$/,
};

/** Groups of two or more placeholders ("{ItemName}", as written) that sit in one table row; rows holding loop tags are left to the loop. */
export function tableRowGroups(file: Buffer, kind: TemplateKind): string[][] {
  const zip = new PizZip(file);
  const row = kind === "docx" ? "w:tr" : "a:tr";
  const groups: string[][] = [];
  for (const name of Object.keys(zip.files).filter((n) => PARTS[kind].test(n))) {
    const xml = zip.file(name)?.asText() ?? "";
    for (const match of xml.matchAll(new RegExp(`<${row}[ >][\\s\\S]*?</${row}>`, "g"))) {
      const tags = [...new Set([...match[0].replace(/<[^>]+>/g, "").matchAll(/\{([^{}]+)\}/g)].map((m) => `{${m[1]}}`))];
      if (tags.length >= 2 && !tags.some((t) => /^\{[#^/]/.test(t))) groups.push(tags);
    }
  }
  return groups;
}

/** The row groups of a stored template (for the dashboard's Generate page). */
export async function storedTemplateRowGroups(db: Db, storage: FileStorage, orgId: string, id: string): Promise<string[][]> {
  const file = await templateFile(db, storage, orgId, id);
  return tableRowGroups(await buffer(file.data.body), file.kind as TemplateKind);
}
