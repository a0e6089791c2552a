"use client";

import { useEffect, useState } from "react";

/** Pages shown at most; a longer template says how many more there are and links the PDF. */
const MAX_PAGES = 20;

/**
 * The template's pages as images (converted by the server, rendered by the same rasterizer as the
 * signing page), full width of the column, instead of a small embedded PDF viewer.
 */
export function TemplatePages({ templateId, name }: { templateId: string; name: string }) {
  const [state, setState] = useState<{ pages: number } | { error: string } | null>(null);
  useEffect(() => {
    let live = true;
    fetch(`/api/dashboard/templates/${templateId}/preview/pages`, { headers: { accept: "application/json" } })
      .then(async (res) => {
        const body = await res.json().catch(() => null);
        if (!res.ok) throw new Error(body?.message ?? `The preview could not be made (HTTP ${res.status})`);
        if (live) setState({ pages: body.data.pageCount as number });
      })
      .catch((err: Error) => live && setState({ error: err.message }));
    return () => {
      live = false;
    };
  }, [templateId]);
  const pdf = `/api/dashboard/templates/${templateId}/preview`;
  if (!state) {
    return (
      <p role="status" className="rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">
        Making the preview…
      </p>
    );
  }
  if ("error" in state) {
    return (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        {state.error}
      </p>
    );
  }
  const shown = Math.min(state.pages, MAX_PAGES);
  return (
    <div className="space-y-3">
      <p className="text-xs text-slate-500">
        {state.pages} page{state.pages === 1 ? "" : "s"} ·{" "}
        <a href={pdf} target="_blank" rel="noopener" className="text-brand-700 hover:underline">
          Open as PDF
        </a>
      </p>
      <ol className="space-y-3" aria-label={`Pages of ${name}`}>
        {Array.from({ length: shown }, (_, i) => (
          <li key={i}>
            {/* eslint-disable-next-line @next/next/no-img-element -- a server-rendered page image, not a static asset */}
            <img
              src={`${pdf}/page/${i + 1}?w=1100`}
              alt={`Page ${i + 1} of ${state.pages}`}
              loading={i < 2 ? "eager" : "lazy"}
              className="w-full rounded border border-slate-200 bg-white shadow-sm"
            />
          </li>
        ))}
      </ol>
      {state.pages > shown ? <p className="text-xs text-slate-500">{state.pages - shown} more pages in the PDF.</p> : null}
    </div>
  );
}
