// Which error family (lib/http/errors.ts) a path belongs to, for answers given before a route runs
// (the proxy refusing a malformed URL). Each documented operation declares its family; a unit test
// checks this table against every one of them.
import type { ErrorFamily } from "@/lib/http/errors";

const PREFIXES: [RegExp, ErrorFamily][] = [
  [/^\/(esign|turbosign)(\/|$)/, "signing"],
  [/^\/api\/signer(\/|$)/, "signer"],
  [/^\/api\/webhooks(\/|$)/, "webhook"],
  [/^\/(template|template-item|template-folder|tag)(\/|$)/, "listing"],
];

/** The family of an API path; null for pages and assets (they answer in HTML). */
export function familyOfPath(pathname: string): ErrorFamily | null {
  for (const [pattern, family] of PREFIXES) if (pattern.test(pathname)) return family;
  return /^\/(v1|api)(\/|$)/.test(pathname) ? "deliverable" : null;
}
