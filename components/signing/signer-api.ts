"use client";

import { useCallback } from "react";
import { useLanguage } from "./i18n";

/**
 * The signing page's POSTs to /api/signer/{token}/...: with the signer's session where a check
 * applies, and the page's language, in which the server then words its error messages.
 */
export function useSignerPost(token: string, session?: string | null) {
  const lang = useLanguage();
  return useCallback(
    async <T = Record<string, string>>(
      path: string,
      payload: unknown = {},
    ): Promise<{ ok: boolean; status: number; body: { data?: T; error?: string } | null }> => {
      const res = await fetch(`/api/signer/${token}/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-signer-language": lang, ...(session ? { "x-signer-session": session } : {}) },
        body: JSON.stringify(payload),
      });
      return { ok: res.ok, status: res.status, body: await res.json().catch(() => null) };
    },
    [token, session, lang],
  );
}
