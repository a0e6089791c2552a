// When two signing fields collide: one rule for the API's and the dashboard's validation and for the
// dashboard's field placer (a client component, so this file imports nothing).

export interface PlacedRect {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Two fields on the same page that share any area (touching edges is fine). */
export function overlaps(a: PlacedRect, b: PlacedRect): boolean {
  return a.page === b.page && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Index pairs [earlier, later] of the first two fields that overlap, or null. */
export function firstOverlap(fields: PlacedRect[]): [number, number] | null {
  for (let j = 1; j < fields.length; j++) {
    for (let i = 0; i < j; i++) if (overlaps(fields[i], fields[j])) return [i, j];
  }
  return null;
}
