// Where the login page sends a user back to: the dashboard link they followed while signed out.

/** The login page, remembering `path` (a same-origin path with its query) to return to. */
export function loginPath(path: string): string {
  return `/login?callbackUrl=${encodeURIComponent(path)}`;
}

/** `raw` if it is a path on this site, else the overview: never another origin (`//host`, `/\host`, `https:`). */
export function safeCallbackPath(raw: string | null | undefined): string {
  if (!raw?.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return "/";
  return raw;
}

/** Set by proxy.ts on every page request: the path and query the browser asked for, so a signed-out
 * visitor can be brought back to it after signing in. Always overwritten there, never trusted further
 * than safeCallbackPath allows. */
export const PAGE_PATH_HEADER = "x-quire-page";
