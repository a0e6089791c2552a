"use client";
// "Check template": asks the template doctor and lists what it found, each with where it is.
import { useState } from "react";

interface Finding {
  code: string;
  severity: "warning" | "info";
  message: string;
  location: string;
}

type State =
  | { status: "idle" }
  | { status: "checking" }
  | { status: "done"; findings: Finding[]; fontsChecked: boolean }
  | { status: "failed"; message: string };

export function TemplateDoctor({ templateId }: { templateId: string }) {
  const [state, setState] = useState<State>({ status: "idle" });

  async function check() {
    setState({ status: "checking" });
    try {
      const res = await fetch(`/api/dashboard/templates/${templateId}/check`, { method: "POST" });
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new Error(body?.message ?? `The check failed (HTTP ${res.status})`);
      setState({ status: "done", findings: body.data.findings, fontsChecked: body.data.fontsChecked });
    } catch (err) {
      setState({ status: "failed", message: err instanceof Error ? err.message : String(err) });
    }
  }

  return (
    <section aria-labelledby="doctor-heading" className="mt-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="doctor-heading" className="font-medium">
          Template check
        </h2>
        <button
          type="button"
          onClick={check}
          disabled={state.status === "checking"}
          className="inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50 disabled:opacity-70"
        >
          {state.status === "checking" ? (
            <span aria-hidden className="h-3 w-3 animate-spin rounded-full border-2 border-slate-500 border-t-transparent" />
          ) : null}
          {state.status === "checking" ? "Checking…" : "Check template"}
        </button>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        Finds what would go wrong before you generate: tags that stay unfilled, blank lines, missing fonts, heavy images.
      </p>
      <div aria-live="polite">
        {state.status === "failed" ? (
          <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {state.message}
          </p>
        ) : null}
        {state.status === "done" ? (
          state.findings.length === 0 ? (
            <p className="mt-3 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">
              No problems found{state.fontsChecked ? "" : " (fonts were not checked: the converter cannot list them)"}.
            </p>
          ) : (
            <ul className="mt-3 space-y-2" aria-label="Findings">
              {state.findings.map((f, i) => (
                <li
                  key={i}
                  className={`rounded-md border p-3 text-sm ${f.severity === "warning" ? "border-amber-300 bg-amber-50" : "border-slate-200 bg-slate-50"}`}
                >
                  <p className="font-medium">
                    <span className="sr-only">{f.severity === "warning" ? "Warning" : "Note"}: </span>
                    {f.location}
                  </p>
                  <p className="break-words text-slate-700">{f.message}</p>
                </li>
              ))}
            </ul>
          )
        ) : null}
      </div>
    </section>
  );
}
