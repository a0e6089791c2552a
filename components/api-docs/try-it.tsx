"use client";

import { useEffect, useId, useRef, useState } from "react";

export interface TryItProps {
  method: string;
  path: string;
  orgId: string;
  /** Path and query parameters the form asks for. */
  params: { name: string; in: "path" | "query"; required: boolean }[];
  /** A sample JSON body to start from; null when the operation takes none. */
  jsonBody: string | null;
  /** An upload (multipart): the form cannot send files, so it points at the curl example. */
  upload: boolean;
}

/** The API key typed once is kept for this browser tab only (sessionStorage), never sent anywhere but this server. */
const KEY_STORE = "quire.api-docs.key";

/** Sends one operation from the browser with the user's API key and shows the reply as it came. */
export function TryIt({ method, path, orgId, params, jsonBody, upload }: TryItProps) {
  const id = useId();
  const [reply, setReply] = useState<{ status: number; text: string } | { error: string } | null>(null);
  const [pending, setPending] = useState(false);
  const keyInput = useRef<HTMLInputElement>(null);
  // After hydration: the server's HTML cannot know what this tab stored.
  useEffect(() => {
    if (keyInput.current && !keyInput.current.value) keyInput.current.value = sessionStorage.getItem(KEY_STORE) ?? "";
  }, []);
  if (upload) return <p className="text-sm text-slate-600">This operation uploads a file: send it with the curl example above.</p>;

  async function send(form: FormData) {
    const key = String(form.get("key") ?? "").trim();
    sessionStorage.setItem(KEY_STORE, key);
    let url = path;
    const query = new URLSearchParams();
    for (const p of params) {
      const value = String(form.get(`param-${p.name}`) ?? "");
      if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(value));
      else if (value) query.set(p.name, value);
    }
    if (query.size) url += `?${query}`;
    const body = jsonBody !== null ? String(form.get("body") ?? "") : undefined;
    setPending(true);
    try {
      const res = await fetch(url, {
        method: method.toUpperCase(),
        headers: {
          authorization: `Bearer ${key}`,
          "x-service-org-id": orgId,
          accept: "application/json",
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body,
      });
      const text = await res.text();
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not JSON: shown as it came
      }
      setReply({ status: res.status, text: pretty });
    } catch (err) {
      setReply({ error: (err as Error).message });
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      aria-label={`Try ${method.toUpperCase()} ${path}`}
      className="grid gap-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        void send(new FormData(e.currentTarget));
      }}
    >
      <label className="block">
        <span className="font-medium">API key</span>
        <input
          name="key"
          type="password"
          required
          autoComplete="off"
          ref={keyInput}
          placeholder="qk_…"
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-mono"
        />
        <span className="mt-1 block text-xs text-slate-500">Create one under API keys. It stays in this tab only.</span>
      </label>
      {params.map((p) => (
        <label key={`${p.in}-${p.name}`} className="block">
          <span className="font-mono font-medium">{p.name}</span> <span className="text-xs text-slate-500">{p.in}</span>
          <input name={`param-${p.name}`} required={p.required} className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-mono" />
        </label>
      ))}
      {jsonBody !== null ? (
        <label className="block">
          <span className="font-medium">JSON body</span>
          <textarea
            name="body"
            rows={Math.min(14, jsonBody.split("\n").length + 1)}
            defaultValue={jsonBody}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-xs"
          />
        </label>
      ) : null}
      <div>
        <button type="submit" disabled={pending} className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60">
          {pending ? "Sending…" : "Send request"}
        </button>
      </div>
      {reply ? (
        <div role="status" aria-labelledby={`${id}-reply`} className="min-w-0">
          <p id={`${id}-reply`} className="font-medium">
            {"error" in reply ? `Not sent: ${reply.error}` : `Reply: HTTP ${reply.status}`}
          </p>
          {"text" in reply ? <pre className="mt-1 max-h-80 overflow-auto rounded bg-slate-900 p-3 font-mono text-xs text-slate-100">{reply.text}</pre> : null}
        </div>
      ) : null}
    </form>
  );
}
