// Shared by the server page (a reopened link) and the client (right after signing).
/** Where a signer's copies download from; the session rides along as `?s=` like the page images. */
export function copyLinks(token: string, session: string | null | undefined, completed: boolean): { mine: string; completed: string | null } {
  const s = session ? `?s=${encodeURIComponent(session)}` : "";
  return { mine: `/api/signer/${token}/download${s}`, completed: completed ? `/api/signer/${token}/download/completed${s}` : null };
}
