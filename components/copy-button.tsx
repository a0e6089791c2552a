"use client";

import { useState } from "react";

/** `name`: the accessible name when several Copy buttons share a page ("Copy hash of the sent entry"). */
export function CopyButton({ value, label = "Copy", name, small = false }: { value: string; label?: string; name?: string; small?: boolean }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard API needs a secure context; fall back to the legacy command.
      const area = document.createElement("textarea");
      area.value = value;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={name}
      className={`rounded-md border border-slate-300 bg-white font-medium hover:bg-slate-50 ${small ? "px-1.5 py-0.5 text-[11px]" : "px-3 py-1.5 text-sm"}`}
    >
      {copied ? "Copied" : label}
    </button>
  );
}
