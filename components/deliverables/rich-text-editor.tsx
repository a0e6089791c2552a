"use client";

import { useEffect, useRef } from "react";

// A small rich-text editor for html variables: the browser's own editing commands over a
// contentEditable area. Its value is the HTML the API's html mimeType expects.
const COMMANDS: { label: string; title: string; command: string; className?: string }[] = [
  { label: "B", title: "Bold", command: "bold", className: "font-bold" },
  { label: "I", title: "Italic", command: "italic", className: "italic" },
  { label: "U", title: "Underline", command: "underline", className: "underline" },
  { label: "• List", title: "Bulleted list", command: "insertUnorderedList" },
  { label: "1. List", title: "Numbered list", command: "insertOrderedList" },
];

export function RichTextEditor({ id, value, onChange, label }: { id: string; value: string; onChange: (html: string) => void; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on mount; afterwards the DOM is the source of truth while typing.
  useEffect(() => {
    if (ref.current && ref.current.innerHTML !== value) ref.current.innerHTML = value;
    // Only on mount: afterwards the DOM is the source of truth while typing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  function run(command: string) {
    ref.current?.focus();
    document.execCommand(command);
    onChange(ref.current?.innerHTML ?? "");
  }
  function addLink() {
    const url = window.prompt("Link address (https://…)");
    if (!url) return;
    ref.current?.focus();
    document.execCommand("createLink", false, url);
    onChange(ref.current?.innerHTML ?? "");
  }
  return (
    <div className="rounded-md border border-slate-300 bg-white">
      <div className="flex flex-wrap gap-1 border-b border-slate-200 p-1" role="toolbar" aria-label={`Formatting for ${label}`}>
        {COMMANDS.map((c) => (
          <button
            key={c.command}
            type="button"
            title={c.title}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => run(c.command)}
            className={`rounded px-2 py-1 text-sm hover:bg-slate-100 ${c.className ?? ""}`}
          >
            {c.label}
          </button>
        ))}
        <button type="button" title="Link" onMouseDown={(e) => e.preventDefault()} onClick={addLink} className="rounded px-2 py-1 text-sm hover:bg-slate-100">
          Link
        </button>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a rich-text box has no native element; contentEditable with role=textbox is the ARIA way. */}
      <div
        id={id}
        ref={ref}
        role="textbox"
        tabIndex={0}
        aria-multiline="true"
        aria-label={label}
        contentEditable
        suppressContentEditableWarning
        onInput={() => onChange(ref.current?.innerHTML ?? "")}
        className="min-h-24 px-3 py-2 text-sm focus:outline-none [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6"
      />
    </div>
  );
}
