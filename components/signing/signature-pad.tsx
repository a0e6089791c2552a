"use client";

import { useEffect, useId, useRef, useState } from "react";
import { DialogFooter, FOCUS_RING } from "@/components/dialog";
import { useT } from "./i18n";

type Mode = "draw" | "type" | "upload";
const MODES: { id: Mode }[] = [{ id: "draw" }, { id: "type" }, { id: "upload" }];

// Draw, type or upload a signature (or initials). Returns a PNG data URL (drawn/uploaded) or the
// typed text, which the sealed PDF renders in its own style. A modal dialog: it takes focus, keeps
// Tab inside, closes on Escape and hands focus back to the field that opened it. Typing is the
// keyboard way to sign; the tabs follow the ARIA tabs pattern (arrow keys move between them).
export function SignaturePad({ label, onDone, onCancel }: { label: string; onDone: (value: string) => void; onCancel: () => void }) {
  const t = useT();
  const [mode, setMode] = useState<Mode>("draw");
  const [typed, setTyped] = useState("");
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const drawing = useRef(false);
  const [hasInk, setHasInk] = useState(false);
  const id = useId();

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    dialog.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
    return () => opener?.focus();
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a mode change mounts a fresh canvas, which needs its pen set again.
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const ctx = c.getContext("2d")!;
    ctx.lineWidth = 2.5;
    ctx.lineCap = "round";
    ctx.strokeStyle = "#1b2a66";
  }, [mode]);

  function choose(next: Mode, focus: boolean) {
    // A fresh canvas is blank: forget ink from an earlier visit to "draw".
    if (next === "draw") setHasInk(false);
    setMode(next);
    setProblem(null);
    if (focus) document.getElementById(`${id}-tab-${next}`)?.focus();
  }

  function onTabKey(e: React.KeyboardEvent, current: Mode) {
    const i = MODES.findIndex((m) => m.id === current);
    const target = { ArrowRight: i + 1, ArrowLeft: i - 1 + MODES.length, Home: 0, End: MODES.length - 1 }[e.key];
    if (target === undefined) return;
    e.preventDefault();
    choose(MODES[target % MODES.length].id, true);
  }

  function onDialogKey(e: React.KeyboardEvent) {
    if (e.key === "Escape") {
      e.stopPropagation();
      onCancel();
      return;
    }
    if (e.key !== "Tab" || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>("button, input, [tabindex]")].filter(
      (el) => el.tabIndex >= 0 && !el.hasAttribute("disabled"),
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first?.focus();
    }
  }

  function point(e: React.PointerEvent<HTMLCanvasElement>) {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - rect.left) / rect.width) * e.currentTarget.width, y: ((e.clientY - rect.top) / rect.height) * e.currentTarget.height };
  }

  function done(e: React.FormEvent) {
    e.preventDefault();
    if (mode === "draw" && canvas.current && hasInk) onDone(canvas.current.toDataURL("image/png"));
    else if (mode === "type" && typed.trim()) onDone(typed.trim());
    else if (mode === "upload" && uploaded) onDone(uploaded);
    else setProblem(mode === "draw" ? t("sign.pad.drawFirst") : mode === "type" ? t("sign.pad.typeFirst") : t("sign.pad.uploadFirst"));
  }

  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-black/40 p-2 sm:items-center">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        onKeyDown={onDialogKey}
        className="w-full max-w-lg rounded-lg bg-white p-4 shadow-xl"
      >
        <h2 id={`${id}-title`} className="mb-3 font-medium">
          {label}
        </h2>
        <div className="mb-3 flex gap-1" role="tablist" aria-label={t("sign.pad.howToSign")}>
          {MODES.map((m) => (
            <button
              key={m.id}
              id={`${id}-tab-${m.id}`}
              type="button"
              role="tab"
              aria-selected={mode === m.id}
              aria-controls={`${id}-panel`}
              tabIndex={mode === m.id ? 0 : -1}
              onClick={() => choose(m.id, false)}
              onKeyDown={(e) => onTabKey(e, m.id)}
              className={`rounded px-3 py-1.5 text-sm font-medium ${FOCUS_RING} ${mode === m.id ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
            >
              {t(`sign.pad.${m.id}`)}
            </button>
          ))}
        </div>
        <form onSubmit={done} noValidate>
          <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${mode}`}>
            {mode === "draw" ? (
              <div>
                <canvas
                  ref={canvas}
                  width={600}
                  height={200}
                  role="img"
                  aria-label={t("sign.pad.drawingArea")}
                  aria-describedby={`${id}-draw-hint`}
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
                    setProblem(null);
                  }}
                  onPointerUp={() => (drawing.current = false)}
                />
                <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
                  <p id={`${id}-draw-hint`} className="text-xs text-slate-500">
                    {t("sign.pad.drawHint")}
                  </p>
                  <button
                    type="button"
                    onClick={() => {
                      canvas.current?.getContext("2d")?.clearRect(0, 0, 600, 200);
                      setHasInk(false);
                    }}
                    className={`rounded text-sm text-slate-600 underline ${FOCUS_RING}`}
                  >
                    {t("sign.pad.clear")}
                  </button>
                </div>
              </div>
            ) : mode === "type" ? (
              <label className="block">
                <span className="text-sm">{t("sign.pad.typeName")}</span>
                <input
                  value={typed}
                  onChange={(e) => {
                    setTyped(e.target.value);
                    setProblem(null);
                  }}
                  maxLength={100}
                  autoComplete="name"
                  className={`mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-serif text-2xl italic ${FOCUS_RING}`}
                />
              </label>
            ) : (
              <label className="block text-sm">
                {t("sign.pad.pngImage")}
                <input
                  type="file"
                  accept="image/png"
                  className={`mt-2 block max-w-full rounded ${FOCUS_RING}`}
                  onChange={(e) => {
                    const f = e.target.files?.[0];
                    if (!f) return;
                    const reader = new FileReader();
                    reader.onload = () => {
                      setUploaded(String(reader.result));
                      setProblem(null);
                    };
                    reader.readAsDataURL(f);
                  }}
                />
                {/* eslint-disable-next-line @next/next/no-img-element */}
                {uploaded ? <img src={uploaded} alt={t("sign.pad.uploaded")} className="mt-2 h-16" /> : null}
              </label>
            )}
          </div>
          <DialogFooter problem={problem} onCancel={onCancel} cancelLabel={t("sign.pad.cancel")} confirmLabel={t("sign.pad.apply")} />
        </form>
      </div>
    </div>
  );
}
