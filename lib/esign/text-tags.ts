// Text tags in an uploaded document (issue 19 item 10): `[[sign:client]]`, `[[date:client]]` or
// `{{signature,client}}` mark where a signer's field goes. The dashboard's placer proposes them as fields;
// they are found with the API's text anchors (lib/pdf/anchors.ts, deps.findAnchors), and each field keeps
// its tag's box as anchorRect, so the seal hides the tag in the output as it does for API anchors.
import { DEFAULT_FIELD_SIZE } from "@/lib/esign/field-plan";
import type { FieldType, PlacedBox } from "@/lib/esign/schemas";
import type { EsignDeps } from "@/lib/esign/types";
import type { Rect } from "@/lib/pdf/geometry";

/** The words a tag may use for each field type. */
const TAG_WORDS: Record<FieldType, string[]> = {
  signature: ["sign", "signature"],
  initial: ["initial", "initials"],
  date: ["date"],
  text: ["text"],
  full_name: ["name", "full_name", "fullname"],
  first_name: ["first_name"],
  last_name: ["last_name"],
  email: ["email"],
  title: ["title"],
  company: ["company"],
  checkbox: ["check", "checkbox"],
};

/** `[[word:role]]` or `{{word,role}}` for one type's words; the role is what the tag names after them. */
function tagPattern(words: string[]): string {
  const w = `(?:${words.join("|")})`;
  return String.raw`\[\[\s*${w}\s*:\s*[^\]]+?\s*\]\]|\{\{\s*${w}\s*,\s*[^}]+?\s*\}\}`;
}

const ROLE = /^(?:\[\[[^:]+:|\{\{[^,]+,)\s*(.+?)\s*(?:\]\]|\}\})$/;
/** "1", "signer2", "Recipient 3": the Nth recipient. */
const NUMBERED = /^(?:signer|recipient)?\s*(\d+)$/i;

export interface TaggedField extends PlacedBox {
  recipientIndex: number;
  required: boolean;
  /** The tag's text and box (hidden in the output). */
  anchor: string;
  anchorRect: Rect;
}

/**
 * Every tag of the PDF as a field of one of `recipientCount` recipients: numbered roles ("signer2")
 * go to that recipient, named roles to the others in order of first appearance. Tags whose role has
 * no recipient left are reported in `unassigned`, not placed.
 */
export async function detectTextTags(
  deps: Pick<EsignDeps, "findAnchors">,
  pdf: Buffer,
  recipientCount: number,
): Promise<{ fields: TaggedField[]; unassigned: string[] }> {
  const types = Object.keys(TAG_WORDS) as FieldType[];
  const hits = await deps.findAnchors(
    pdf,
    types.map((type) => ({ anchor: tagPattern(TAG_WORDS[type]), useRegex: true, optional: true, size: DEFAULT_FIELD_SIZE[type] })),
  );
  const found = types
    .flatMap((type, i) => hits[i].map((hit) => ({ type, hit, role: ROLE.exec(hit.text)?.[1] ?? "" })))
    .sort((a, b) => a.hit.page - b.hit.page || a.hit.match.y - b.hit.match.y || a.hit.match.x - b.hit.match.x);

  const indexOf = new Map<string, number>();
  for (const { role } of found) {
    const n = NUMBERED.exec(role);
    if (n && Number(n[1]) >= 1 && Number(n[1]) <= recipientCount) indexOf.set(role.toLowerCase(), Number(n[1]) - 1);
  }
  const taken = new Set(indexOf.values());
  let next = 0;
  for (const { role } of found) {
    const key = role.toLowerCase();
    if (indexOf.has(key) || NUMBERED.test(role)) continue;
    while (taken.has(next)) next++;
    if (next >= recipientCount) break;
    indexOf.set(key, next);
    taken.add(next);
  }

  const fields: TaggedField[] = [];
  const unassigned: string[] = [];
  for (const { type, hit, role } of found) {
    const recipientIndex = indexOf.get(role.toLowerCase());
    if (recipientIndex === undefined) {
      unassigned.push(hit.text);
      continue;
    }
    const { match, text, page, x, y, width, height } = hit;
    fields.push({ recipientIndex, type, page, x, y, width, height, required: type !== "checkbox", anchor: text, anchorRect: match });
  }
  return { fields: clearOfNeighbours(fields), unassigned };
}

/** The gap kept between a proposed field and the next tag's field on its line. */
const GAP = 2;

/**
 * Two tags on one line ("{{signature,landlord}} Note: [[text:landlord]]") would propose fields that
 * overlap, which a save refuses: a field is cut short where the next one on its line starts, as long as
 * a usable width remains.
 */
function clearOfNeighbours(fields: TaggedField[]): TaggedField[] {
  return fields.map((f) => {
    const next = fields.filter((o) => o !== f && o.page === f.page && o.x > f.x && o.y < f.y + f.height && f.y < o.y + o.height).sort((a, b) => a.x - b.x)[0];
    if (!next || f.x + f.width <= next.x - GAP) return f;
    const width = next.x - GAP - f.x;
    return width >= Math.min(f.width, 20) ? { ...f, width } : f;
  });
}

/** Whether a box is exactly one of the tags found (a placer's field may hide only a real tag). */
export function isTagBox(fields: TaggedField[], page: number, rect: Rect): boolean {
  return fields.some(
    (f) =>
      f.page === page && f.anchorRect.x === rect.x && f.anchorRect.y === rect.y && f.anchorRect.width === rect.width && f.anchorRect.height === rect.height,
  );
}
