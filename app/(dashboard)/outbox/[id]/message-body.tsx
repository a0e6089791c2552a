"use client";

import { useState } from "react";

// The email as its recipient would see it. The HTML runs in a sandboxed frame without scripts or
// same-origin access (mail content is untrusted); links open in a new tab via the injected <base>.
export function MessageBody({ html, text }: { html: string; text: string }) {
  const [view, setView] = useState<"html" | "text">("html");
  const tab = (v: "html" | "text", label: string) => (
    <button
      type="button"
      role="tab"
      id={`tab-${v}`}
      aria-selected={view === v}
      aria-controls={`panel-${v}`}
      tabIndex={view === v ? 0 : -1}
      onClick={() => setView(v)}
      onKeyDown={(e) => {
        // Arrow keys move between the two tabs, as in any tab list.
        if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
          const next = v === "html" ? "text" : "html";
          setView(next);
          document.getElementById(`tab-${next}`)?.focus();
        }
      }}
      className={`rounded px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600 ${view === v ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
    >
      {label}
    </button>
  );
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <div role="tablist" aria-label="Message format" className="flex gap-1 border-b border-slate-200 p-2">
        {tab("html", "HTML")}
        {tab("text", "Plain text")}
      </div>
      {view === "html" ? (
        <div role="tabpanel" id="panel-html" aria-labelledby="tab-html">
          <iframe title="Email HTML" sandbox="allow-popups allow-popups-to-escape-sandbox" srcDoc={html} className="block h-[32rem] w-full rounded-b-lg" />
        </div>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the ARIA tabs pattern: a panel of plain, sideways-scrolling text is reached (and scrolled) by Tab.
        <div role="tabpanel" id="panel-text" aria-labelledby="tab-text" tabIndex={0}>
          <pre className="overflow-x-auto whitespace-pre-wrap break-words p-4 text-sm">{text}</pre>
        </div>
      )}
    </section>
  );
}
