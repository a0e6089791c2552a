// Where each field of a prepare request lands: on coordinates, or on every match of a text anchor in the
// PDF; every placement must fit its page as displayed.
import { invalid } from "@/lib/esign/errors";
import { ValidationError } from "@/lib/errors";
import { firstOverlap, type PlacedRect } from "@/lib/esign/field-overlap";
import type { FieldInput, RecipientInput } from "@/lib/esign/schemas";
import type { EsignDeps } from "@/lib/esign/types";
import { fitsOn, type Rect } from "@/lib/pdf/geometry";

export const DEFAULT_FIELD_SIZE: Record<string, { width: number; height: number }> = {
  signature: { width: 160, height: 40 },
  initial: { width: 60, height: 30 },
  checkbox: { width: 14, height: 14 },
};

export interface PlannedField {
  recipientIndex: number;
  type: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  defaultValue: string | null;
  isReadonly: boolean;
  isMultiline: boolean;
  anchor: string | null;
  anchorRect: Rect | null;
}

type PageSize = { width: number; height: number };

/** A field must lie on its page as displayed (docs/contract.md "Signing documents"); the message names it and the page. */
export function checkFieldFits(pages: PageSize[], f: { page: number } & Rect, field: string): void {
  const page = pages[f.page - 1];
  if (!page) throw invalid(`${field}.page is ${f.page} but the document has ${pages.length} page(s)`, "FieldOutOfDocument", `${field}.page`);
  if (!fitsOn(page, f)) {
    const r = (n: number) => Math.round(n * 10) / 10;
    throw invalid(
      `${field} (x ${r(f.x)}, y ${r(f.y)}, ${r(f.width)}×${r(f.height)}) does not fit on page ${f.page}, which is ${r(page.width)}×${r(page.height)} from its top-left corner`,
      "FieldOutOfPage",
      field,
    );
  }
}

/**
 * No two fields may share any area: a date stamped over a signature makes both unreadable. `names[i]`
 * names field i in the message ("fields.3"); the first overlapping pair is reported, naming both.
 */
export function checkNoOverlap(fields: PlacedRect[], names: string[]): void {
  const pair = firstOverlap(fields);
  if (!pair) return;
  const [i, j] = pair;
  const message = `${names[j]} overlaps ${names[i]} on page ${fields[j].page}`;
  throw new ValidationError(
    message,
    [names[j], names[i]].map((field) => ({ field, message })),
    "FieldsOverlap",
  );
}

export async function planFields(deps: EsignDeps, pdf: Buffer, pages: PageSize[], recipients: RecipientInput[], fields: FieldInput[]): Promise<PlannedField[]> {
  const recipientOf = (f: FieldInput, i: number): number => {
    const index = f.recipientExternalId
      ? recipients.findIndex((r) => r.externalId === f.recipientExternalId)
      : recipients.findIndex((r) => r.email.toLowerCase() === f.recipientEmail!.toLowerCase());
    if (index < 0)
      throw invalid(
        `fields.${i} names a recipient that is not in recipients (${f.recipientExternalId ?? f.recipientEmail})`,
        "FieldRecipientUnknown",
        `fields.${i}`,
      );
    return index;
  };
  const anchored = fields.map((f, i) => ({ f, i })).filter(({ f }) => f.template?.anchor ?? f.template?.searchText);
  const hits = anchored.length
    ? await deps.findAnchors(
        pdf,
        anchored.map(({ f }) => ({
          anchor: (f.template!.anchor ?? f.template!.searchText)!,
          placement: f.template!.placement,
          size: f.template!.size ?? DEFAULT_FIELD_SIZE[f.type],
          offset: f.template!.offset,
          caseSensitive: f.template!.caseSensitive,
          useRegex: f.template!.useRegex,
        })),
      )
    : [];
  const planned: PlannedField[] = [];
  const names: string[] = [];
  for (const [i, f] of fields.entries()) {
    const recipientIndex = recipientOf(f, i);
    const common = {
      recipientIndex,
      type: f.type,
      required: f.required ?? f.type !== "checkbox",
      defaultValue: f.defaultValue ?? null,
      isReadonly: f.isReadonly ?? false,
      isMultiline: f.isMultiline ?? false,
    };
    const k = anchored.findIndex((a) => a.i === i);
    if (k >= 0) {
      const anchor = (f.template!.anchor ?? f.template!.searchText)!;
      for (const { match, text: _text, ...hit } of hits[k]) {
        checkFieldFits(pages, hit, `fields.${i}`);
        planned.push({ ...common, ...hit, anchor, anchorRect: match });
        names.push(`fields.${i}`);
      }
      continue;
    }
    const placed = { page: f.page!, x: f.x!, y: f.y!, width: f.width!, height: f.height! };
    checkFieldFits(pages, placed, `fields.${i}`);
    planned.push({ ...common, ...placed, anchor: null, anchorRect: null });
    names.push(`fields.${i}`);
  }
  checkNoOverlap(planned, names);
  return planned;
}
