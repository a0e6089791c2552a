// The fields a signer session returns (lib/esign/signing.ts) and the signing page draws
// (components/signing): declared once, shared by both.

/** Where a field sits: PDF points from the top-left of the page as displayed. */
export interface FieldBox {
  id: string;
  type: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A field this signer fills. */
export interface SignerField extends FieldBox {
  required: boolean;
  defaultValue: string | null;
  isReadonly: boolean;
  isMultiline: boolean;
}

/** An earlier signer's value: already on the page image; described for screen readers and hover. */
export interface FilledField extends FieldBox {
  signer: string;
  /** null for a drawn signature or initials. */
  value: string | null;
}

export function fieldBox(f: FieldBox): FieldBox {
  return { id: f.id, type: f.type, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height };
}
