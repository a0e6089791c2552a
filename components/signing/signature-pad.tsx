"use client";

import { useEffect, useRef, useState } from "react";

// Draw, type or upload a signature (or initials). Returns a PNG data URL (drawn/uploaded) or the
// typed text, which the sealed PDF renders in its own style.
export function SignaturePad({ label, onDone, onCancel }: { label: string; onDone: (value: string) => void; onCancel: () => void }) {
  const [mode, setMode] = useState<"draw" | "type" | "upload">("draw");
  const [typed, setTyped] = useState("");
  const [uploaded, setUploaded] = useState<string | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [hasInk, setHasInk] = useState(false);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const ctx = c.getContext("2d")!;
    ctx.lineWidth = 2.5;
    ctx.lineCap = "round";
    ctx.strokeStyle = "#1b2a66";
  }, [mode]);

  function point(e: React.PointerEvent<HTMLCanvasElement>) {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - rect.left) / rect.width) * e.currentTarget.width, y: ((e.clientY - rect.top) / rect.height) * e.currentTarget.height };
  }

  function done() {
    if (mode === "draw" && canvas.current && hasInk) onDone(canvas.current.toDataURL("image/png"));
    else if (mode === "type" && typed.trim()) onDone(typed.trim());
    else if (mode === "upload" && uploaded) onDone(uploaded);
  }

  return (
    <div role="dialog" aria-modal="true" aria-label={label} className="fixed inset-0 z-50 flex items-end justify-center bg-black/40 p-2 sm:items-center">
      <div className="w-full max-w-lg rounded-lg bg-white p-4 shadow-xl">
        <h2 className="mb-3 font-medium">{label}</h2>
        <div className="mb-3 flex gap-1" role="tablist">
          {(["draw", "type", "upload"] as const).map((m) => (
            <button key={m} type="button" role="tab" aria-selected={mode === m} onClick={() => setMode(m)} className={`rounded px-3 py-1.5 text-sm capitalize ${mode === m ? "bg-brand-50 text-brand-700" : "text-slate-600"}`}>
              {m}
            </button>
          ))}
        </div>
        {mode === "draw" ? (
          <div>
            <canvas
              ref={canvas}
              width={600}
              height={200}
              aria-label="Draw here"
              className="h-40 w-full touch-none rounded border border-slate-300 bg-slate-50"
              onPointerDown={(e) => {
                drawing.current = true;
                const ctx = e.currentTarget.getContext("2d")!;
                const p = point(e);
                ctx.beginPath();
                ctx.moveTo(p.x, p.y);
                e.currentTarget.setPointerCapture(e.pointerId);
              }}
              onPointerMove={(e) => {
                if (!drawing.current) return;
                const ctx = e.currentTarget.getContext("2d")!;
                const p = point(e);
                ctx.lineTo(p.x, p.y);
                ctx.stroke();
                setHasInk(true);
              }}
              onPointerUp={() => (drawing.current = false)}
            />
            <button
              type="button"
              onClick={() => {
                canvas.current?.getContext("2d")?.clearRect(0, 0, 600, 200);
                setHasInk(false);
              }}
              className="mt-1 text-sm text-slate-600 underline"
            >
              Clear
            </button>
          </div>
        ) : mode === "type" ? (
          <label className="block">
            <span className="text-sm">Type it</span>
            <input autoFocus value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={100} className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-serif text-2xl italic" />
          </label>
        ) : (
          <label className="block text-sm">
            A PNG image of your signature
            <input
              type="file"
              accept="image/png"
              className="mt-2 block"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (!f) return;
                const reader = new FileReader();
                reader.onload = () => setUploaded(String(reader.result));
                reader.readAsDataURL(f);
              }}
            />
            {uploaded ? <img src={uploaded} alt="Uploaded signature" className="mt-2 h-16" /> : null}
          </label>
        )}
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" onClick={onCancel} className="rounded-md px-4 py-2 text-sm text-slate-600">
            Cancel
          </button>
          <button type="button" onClick={done} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white">
            Apply
          </button>
        </div>
      </div>
    </div>
  );
}
