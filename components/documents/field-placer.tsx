"use client";
// Size: one component: the drag, keyboard and overlap rules all act on the same fields, selection and message.

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { saveDraftFieldsAction } from "@/lib/dashboard/actions/documents";
import { SaveLayoutPanel } from "@/components/documents/save-layout-panel";
import { firstOverlap, overlaps } from "@/lib/esign/field-overlap";
import { FormMessage } from "@/components/ui";
import type { FieldType, PlacedBox } from "@/lib/esign/schemas";

export interface PlacerField extends PlacedBox {
  id: string;
  recipientId: string;
  required: boolean;
  /** Proposed from a text tag: the tag's box, hidden in the signed output. */
  anchorRect?: { x: number; y: number; width: number; height: number } | null;
}

interface Recipient {
  id: string;
  name: string;
  email: string;
  signingOrder: number;
}

const PALETTE: { type: FieldType; label: string; size: [number, number] }[] = [
  { type: "signature", label: "Signature", size: [160, 40] },
  { type: "initial", label: "Initials", size: [60, 30] },
  { type: "date", label: "Date", size: [100, 20] },
  { type: "full_name", label: "Full name", size: [160, 20] },
  { type: "text", label: "Text", size: [160, 20] },
  { type: "email", label: "Email", size: [180, 20] },
  { type: "title", label: "Title", size: [140, 20] },
  { type: "company", label: "Company", size: [140, 20] },
  { type: "checkbox", label: "Checkbox", size: [16, 16] },
];
const LABEL = Object.fromEntries(PALETTE.map((p) => [p.type, p.label])) as Record<string, string>;
const SIZE = Object.fromEntries(PALETTE.map((p) => [p.type, p.size])) as Record<string, [number, number]>;
// One colour per signer, so who fills what is visible at a glance.
const COLOURS = ["#2563eb", "#db2777", "#059669", "#d97706", "#7c3aed", "#0891b2", "#dc2626", "#4d7c0f"];

const round = (v: number) => Math.round(v * 10) / 10;
const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
let localIds = 0;

type Gesture =
  | { kind: "new"; type: FieldType; startX: number; startY: number; moved: boolean }
  | { kind: "move" | "resize"; id: string; startX: number; startY: number; origin: PlacerField; scale: number };

export function FieldPlacer({
  documentId,
  pages,
  recipients,
  initialFields,
  tags = { proposed: 0, unassigned: [] },
}: {
  tags?: { proposed: number; unassigned: string[] };
  documentId: string;
  pages: { width: number; height: number }[];
  recipients: Recipient[];
  initialFields: PlacerField[];
}) {
  const router = useRouter();
  const [fields, setFields] = useState<PlacerField[]>(initialFields);
  const [active, setActive] = useState(recipients[0]?.id ?? "");
  const [selected, setSelected] = useState<string | null>(null);
  const [ghost, setGhost] = useState<{ x: number; y: number; type: FieldType } | null>(null);
  const [pending, setPending] = useState<"save" | "send" | null>(null);
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const gesture = useRef<Gesture | null>(null);
  const suppressClick = useRef(false);
  const pageRefs = useRef<(HTMLFieldSetElement | null)[]>([]);
  const settingsRef = useRef<HTMLElement | null>(null);
  // Set by Enter or Space on a placed field: once its settings are on screen, focus moves into them.
  const [openSettings, setOpenSettings] = useState(false);

  const colourOf = (recipientId: string) => COLOURS[recipients.findIndex((r) => r.id === recipientId) % COLOURS.length];
  const nameOf = (recipientId: string) => recipients.find((r) => r.id === recipientId)?.name ?? "?";
  const patch = (id: string, p: Partial<PlacerField>) => setFields((all) => all.map((f) => (f.id === id ? { ...f, ...p } : f)));

  /** The first other field `f` would cover, if any. */
  const collision = (f: PlacerField, all: PlacerField[] = fields) => all.find((o) => o.id !== f.id && overlaps(o, f));
  const overlapMessage = (f: PlacerField, other: PlacerField) =>
    `The ${LABEL[f.type]} field for ${nameOf(f.recipientId)} would overlap the ${LABEL[other.type]} field for ${nameOf(other.recipientId)}: put it elsewhere.`;

  /**
   * Adds a field centred on a point. `cascade` (a press of a palette button, which always aims at the
   * same spot) steps it down and right past the fields already there; a drop on a field is refused.
   */
  function place(type: FieldType, page: number, centreX: number, centreY: number, cascade: boolean) {
    const [w, h] = SIZE[type];
    const size = pages[page - 1];
    const at = (cx: number, cy: number): PlacerField => ({
      id: `new-${localIds + 1}`,
      recipientId: active,
      type,
      page,
      x: round(clamp(cx - w / 2, 0, size.width - w)),
      y: round(clamp(cy - h / 2, 0, size.height - h)),
      width: w,
      height: h,
      required: type !== "checkbox",
    });
    let field = at(centreX, centreY);
    for (let step = 1; cascade && collision(field) && step < 200; step++) {
      // Down by the field's height plus a gap, and a little right; back to the top when off the page.
      const cy = centreY + step * (h + 6);
      field = at(centreX + (step % 5) * 12, ((cy - h / 2) % (size.height - h)) + h / 2);
    }
    const other = collision(field);
    if (other) return setMessage({ tone: "error", text: overlapMessage(field, other) });
    localIds++;
    setFields((all) => [...all, field]);
    setSelected(field.id);
    setMessage(null);
  }

  /** Page under a screen point, with the point in PDF points from that page's top-left. */
  function pageAt(clientX: number, clientY: number): { page: number; x: number; y: number } | null {
    for (const [i, el] of pageRefs.current.entries()) {
      if (!el) continue;
      const r = el.getBoundingClientRect();
      if (clientX >= r.left && clientX <= r.right && clientY >= r.top && clientY <= r.bottom) {
        const scale = pages[i].width / r.width;
        return { page: i + 1, x: (clientX - r.left) * scale, y: (clientY - r.top) * scale };
      }
    }
    return null;
  }

  /** Keyboard and tap: add to the page most in view, in the middle of its visible part. */
  function addToVisiblePage(type: FieldType) {
    let best = { page: 1, area: -1, x: pages[0].width / 2, y: 80 };
    for (const [i, el] of pageRefs.current.entries()) {
      if (!el) continue;
      const r = el.getBoundingClientRect();
      const top = Math.max(r.top, 0);
      const bottom = Math.min(r.bottom, window.innerHeight);
      const area = Math.max(0, bottom - top);
      if (area > best.area) {
        const scale = pages[i].width / r.width;
        best = { page: i + 1, area, x: pages[i].width / 2, y: ((top + bottom) / 2 - r.top) * scale };
      }
    }
    place(type, best.page, best.x, best.y, true);
  }

  useEffect(() => {
    function onMove(e: PointerEvent) {
      const g = gesture.current;
      if (!g) return;
      const dx = e.clientX - g.startX;
      const dy = e.clientY - g.startY;
      if (g.kind === "new") {
        if (!g.moved && Math.hypot(dx, dy) < 5) return;
        g.moved = true;
        setGhost({ x: e.clientX, y: e.clientY, type: g.type });
        return;
      }
      e.preventDefault();
      const o = g.origin;
      const size = pages[o.page - 1];
      if (g.kind === "move") {
        patch(g.id, { x: round(clamp(o.x + dx * g.scale, 0, size.width - o.width)), y: round(clamp(o.y + dy * g.scale, 0, size.height - o.height)) });
      } else {
        patch(g.id, { width: round(clamp(o.width + dx * g.scale, 8, size.width - o.x)), height: round(clamp(o.height + dy * g.scale, 8, size.height - o.y)) });
      }
    }
    function onUp(e: PointerEvent) {
      const g = gesture.current;
      gesture.current = null;
      if (!g) return;
      if (g.kind !== "new") {
        // A move or resize that ends on another field goes back to where it started.
        const moved = fields.find((f) => f.id === g.id);
        const other = moved && collision(moved);
        if (moved && other) {
          patch(g.id, { x: g.origin.x, y: g.origin.y, width: g.origin.width, height: g.origin.height });
          setMessage({ tone: "error", text: overlapMessage(moved, other) });
        }
        return;
      }
      setGhost(null);
      if (!g.moved) return; // a click: handled by onClick
      // The drop's click, if the browser sends one, lands on the palette button: skip it, but only it
      // (a click that never comes must not swallow the next press of a button).
      suppressClick.current = true;
      setTimeout(() => {
        suppressClick.current = false;
      }, 0);
      const hit = pageAt(e.clientX, e.clientY);
      if (hit) place(g.type, hit.page, hit.x, hit.y, false);
      else setMessage({ tone: "error", text: "Drop the field on a page." });
    }
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
    return () => {
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
    };
  });

  const fieldButton = (id: string) => document.querySelector<HTMLButtonElement>(`[data-field-id="${CSS.escape(id)}"]`);

  useEffect(() => {
    if (!openSettings || !selected) return;
    setOpenSettings(false);
    settingsRef.current?.querySelector<HTMLElement>("select, input, button")?.focus();
  }, [openSettings, selected]);

  function startFieldGesture(e: React.PointerEvent, f: PlacerField, kind: "move" | "resize") {
    e.stopPropagation();
    e.preventDefault();
    const el = pageRefs.current[f.page - 1];
    if (!el) return;
    // preventDefault keeps the browser from focusing the field: focus it here, so the arrow keys and
    // Delete act on the field just clicked or dragged.
    fieldButton(f.id)?.focus({ preventScroll: true });
    setSelected(f.id);
    gesture.current = { kind, id: f.id, startX: e.clientX, startY: e.clientY, origin: f, scale: pages[f.page - 1].width / el.getBoundingClientRect().width };
  }

  function onFieldKey(e: React.KeyboardEvent, f: PlacerField) {
    const step = e.shiftKey ? 10 : 2;
    const size = pages[f.page - 1];
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[e.key]) {
      e.preventDefault();
      const [dx, dy] = moves[e.key];
      const next = { ...f, x: round(clamp(f.x + dx, 0, size.width - f.width)), y: round(clamp(f.y + dy, 0, size.height - f.height)) };
      const other = collision(next);
      if (other) return setMessage({ tone: "error", text: overlapMessage(next, other) });
      patch(f.id, { x: next.x, y: next.y });
    } else if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      remove(f.id);
    }
  }

  /** Removes a field; keyboard focus goes on to the next field (else the first palette button), not to the page's top. */
  function remove(id: string) {
    const at = fields.findIndex((f) => f.id === id);
    const rest = fields.filter((f) => f.id !== id);
    const next = rest[Math.min(at, rest.length - 1)];
    setFields(rest);
    setSelected(null);
    setTimeout(() => (next ? fieldButton(next.id) : document.querySelector<HTMLElement>("[data-field-type]"))?.focus());
  }

  async function save(send: boolean) {
    // Fields saved before overlaps were refused may still overlap: say which, in words, before the server does.
    const pair = firstOverlap(fields);
    if (pair) return setMessage({ tone: "error", text: overlapMessage(fields[pair[1]], fields[pair[0]]) });
    setPending(send ? "send" : "save");
    setMessage(null);
    const r = await saveDraftFieldsAction({
      id: documentId,
      fields: fields.map(({ id: _id, ...f }) => f),
      send,
    });
    setPending(null);
    if (!r.ok) return setMessage({ tone: "error", text: r.error });
    if (send) router.push(`/documents/${documentId}`);
    else setMessage({ tone: "ok", text: r.data ?? "Saved." });
  }

  const current = fields.find((f) => f.id === selected) ?? null;
  const counts = new Map(recipients.map((r) => [r.id, fields.filter((f) => f.recipientId === r.id).length]));

  return (
    <div className="grid gap-4 lg:grid-cols-[18rem_1fr]">
      <aside className="space-y-4 lg:sticky lg:top-4 lg:self-start">
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            disabled={pending !== null}
            onClick={() => save(true)}
            className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
          >
            {pending === "send" ? <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white" /> : null}
            Send for signing
          </button>
          <button
            type="button"
            disabled={pending !== null}
            onClick={() => save(false)}
            className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50 disabled:opacity-60"
          >
            {pending === "save" ? "Saving…" : "Save draft"}
          </button>
        </div>
        <FormMessage message={message} />
        {tags.proposed || tags.unassigned.length ? (
          <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900">
            {tags.proposed ? `${tags.proposed} field(s) placed from text tags in the document (the tags are hidden in the signed copy). ` : ""}
            {tags.unassigned.length ? `No signer left for ${tags.unassigned.join(", ")}: add a signer or place these yourself.` : ""}
          </p>
        ) : null}
        <SaveLayoutPanel documentId={documentId} recipients={recipients} fields={fields} />
        <fieldset className="rounded-lg border border-slate-200 bg-white p-3">
          <legend className="px-1 text-sm font-medium">Fields for</legend>
          <div className="space-y-1">
            {recipients.map((r) => (
              <label key={r.id} className={`flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm ${active === r.id ? "bg-slate-100" : ""}`}>
                <input type="radio" name="active-signer" checked={active === r.id} onChange={() => setActive(r.id)} />
                <span aria-hidden className="h-3 w-3 shrink-0 rounded-full" style={{ background: colourOf(r.id) }} />
                <span className="min-w-0 flex-1 truncate" title={r.email}>
                  {r.signingOrder}. {r.name}
                </span>
                <span className={`text-xs ${counts.get(r.id) ? "text-slate-500" : "text-amber-700"}`}>
                  {counts.get(r.id) ? `${counts.get(r.id)} field(s)` : "no fields"}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="rounded-lg border border-slate-200 bg-white p-3">
          <p className="mb-2 text-sm font-medium">Drag a field onto a page</p>
          <p className="mb-2 text-xs text-slate-600">Or press it to add it to the page in view.</p>
          <p id="placer-field-keys" className="mb-2 text-xs text-slate-600">
            On a placed field: Enter opens its settings (Escape comes back), the arrow keys move it (Shift: faster), Delete removes it.
          </p>
          <div className="grid grid-cols-3 gap-1.5 lg:grid-cols-2">
            {PALETTE.map((p) => (
              <button
                key={p.type}
                type="button"
                data-field-type={p.type}
                onPointerDown={(e) => {
                  if (e.button !== 0) return;
                  gesture.current = { kind: "new", type: p.type, startX: e.clientX, startY: e.clientY, moved: false };
                }}
                onClick={() => {
                  if (suppressClick.current) {
                    suppressClick.current = false;
                    return;
                  }
                  addToVisiblePage(p.type);
                }}
                className="touch-none select-none rounded-md border px-2 py-1.5 text-left text-xs font-medium hover:bg-slate-50"
                style={{ borderColor: colourOf(active) }}
              >
                {p.label}
              </button>
            ))}
          </div>
        </div>
        {current ? (
          <section
            ref={settingsRef}
            className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 text-sm"
            aria-label="Selected field"
            onKeyDown={(e) => {
              // Escape goes back to the field, where the arrow keys move it.
              if (e.key !== "Escape") return;
              e.preventDefault();
              fieldButton(current.id)?.focus();
            }}
          >
            <p className="font-medium">
              {LABEL[current.type]} · page {current.page}
            </p>
            <label className="block">
              <span className="text-xs text-slate-600">Signer</span>
              <select
                value={current.recipientId}
                onChange={(e) => patch(current.id, { recipientId: e.target.value })}
                className="mt-0.5 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5"
              >
                {recipients.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={current.required} onChange={(e) => patch(current.id, { required: e.target.checked })} />
              Required
            </label>
            <button
              type="button"
              onClick={() => remove(current.id)}
              className="rounded-md border border-red-200 px-3 py-1.5 text-xs text-red-700 hover:bg-red-50"
            >
              Remove field
            </button>
          </section>
        ) : null}
      </aside>

      <div className="space-y-4" onPointerDown={() => setSelected(null)}>
        {pages.map((size, i) => (
          <fieldset
            key={i}
            ref={(el) => {
              pageRefs.current[i] = el;
            }}
            data-page={i + 1}
            aria-label={`Page ${i + 1}`}
            className="relative m-0 block w-full min-w-0 border-0 p-0 overflow-hidden rounded-md bg-white shadow ring-1 ring-slate-200"
            style={{ aspectRatio: `${size.width} / ${size.height}` }}
          >
            {/* eslint-disable-next-line @next/next/no-img-element -- a server-rendered page image, not a static asset */}
            <img
              src={`/api/dashboard/documents/${documentId}/page/${i + 1}?w=1100`}
              alt={`Page ${i + 1}`}
              loading={i < 2 ? "eager" : "lazy"}
              draggable={false}
              className="absolute inset-0 h-full w-full select-none"
            />
            {fields
              .filter((f) => f.page === i + 1)
              .map((f) => (
                <button
                  type="button"
                  key={f.id}
                  data-field={f.type}
                  data-field-id={f.id}
                  aria-label={`${LABEL[f.type]} for ${nameOf(f.recipientId)} on page ${f.page}`}
                  aria-pressed={selected === f.id}
                  aria-describedby="placer-field-keys"
                  onPointerDown={(e) => startFieldGesture(e, f, "move")}
                  onFocus={() => setSelected(f.id)}
                  onClick={(e) => {
                    setSelected(f.id);
                    // Enter or Space (a click with no pointer behind it, detail 0) opens the field's settings;
                    // a mouse click only selects, leaving the pointer free to drag it.
                    if (e.detail === 0) setOpenSettings(true);
                  }}
                  onKeyDown={(e) => onFieldKey(e, f)}
                  className={`absolute flex touch-none cursor-move items-center overflow-hidden rounded-sm border-2 px-1 text-[10px] leading-tight font-medium outline-none select-none focus-visible:ring-2 focus-visible:ring-brand-600 ${selected === f.id ? "shadow-lg" : ""}`}
                  style={{
                    left: `${(f.x / size.width) * 100}%`,
                    top: `${(f.y / size.height) * 100}%`,
                    width: `${(f.width / size.width) * 100}%`,
                    height: `${(f.height / size.height) * 100}%`,
                    borderColor: colourOf(f.recipientId),
                    background: `${colourOf(f.recipientId)}22`,
                    color: colourOf(f.recipientId),
                  }}
                >
                  <span className="truncate">{f.type === "checkbox" ? "" : `${LABEL[f.type]}${f.required ? "*" : ""}`}</span>
                  <span
                    aria-hidden
                    data-resize
                    onPointerDown={(e) => startFieldGesture(e, f, "resize")}
                    className="absolute right-0 bottom-0 h-2.5 w-2.5 cursor-se-resize"
                    style={{ background: colourOf(f.recipientId) }}
                  />
                </button>
              ))}
          </fieldset>
        ))}
      </div>
      {ghost ? (
        <div
          aria-hidden
          className="pointer-events-none fixed z-50 -translate-x-1/2 -translate-y-1/2 rounded-sm border-2 bg-white/80 px-2 py-1 text-xs font-medium shadow"
          style={{ left: ghost.x, top: ghost.y, borderColor: colourOf(active), color: colourOf(active) }}
        >
          {LABEL[ghost.type]}
        </div>
      ) : null}
    </div>
  );
}
