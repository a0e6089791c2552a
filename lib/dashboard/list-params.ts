// The query string of a dashboard list page (?q=…&tag=…&page=…): read the same way on every list, and
// each page's link written back with the filters it keeps.
import { isUuid } from "@/lib/ids";

/** The 1-based page asked for; anything else is the first page. */
export function pageOf(param: string | undefined): number {
  return Math.max(1, Number(param) || 1);
}

/** The tag ids of a repeated `tag` parameter; what is not an id is ignored. */
export function tagIdsOf(param: string | string[] | undefined): string[] {
  return (Array.isArray(param) ? param : param ? [param] : []).filter((t) => isUuid(t));
}

/** Builds page `p`'s link of `path`, keeping the filters that have a value (a list repeats its key). */
export function pageLinks(path: string, keep: Record<string, string | readonly string[] | undefined>): (p: number) => string {
  return (p) => {
    const q = new URLSearchParams();
    for (const [key, value] of Object.entries(keep)) for (const v of [value ?? []].flat()) if (v) q.append(key, v);
    q.set("page", String(p));
    return `${path}?${q}`;
  };
}
