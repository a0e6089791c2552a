import { ValidationError } from "@/lib/errors";

/** Page number from the path and pixel width from `?w=` (clamped), for page-image routes. */
export function parsePageImageRequest(n: string, url: string): { page: number; width: number } {
  const page = Number(n);
  if (!Number.isInteger(page) || page < 1 || page > 10_000)
    throw new ValidationError("Bad page number", [{ field: "n", message: "must be a page number" }], "BadPage");
  const width = Math.min(2000, Math.max(300, Number(new URL(url).searchParams.get("w")) || 1100));
  return { page, width };
}
