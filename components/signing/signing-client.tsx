"use client";

import { useMemo, useState } from "react";
import { useHydrated } from "@/components/use-hydrated";
import type { FilledField, SignerField } from "@/lib/esign/signer-fields";
import { DeclinedNotice, postCompletion, SignedNotice } from "./completion";
import { useT } from "./i18n";
import { copyLinks } from "./copy-links";
import { DeclineDialog } from "./decline-dialog";
import { useSignerPost } from "./signer-api";
import { SignaturePad } from "./signature-pad";

// Keyboard focus must be visible on the amber/green field boxes, and a focused field must not hide
// under the sticky "Finish signing" bar.
// Inputs use :focus, not :focus-visible: a date input's focus sits on its inner parts, which
// :focus-visible on the input does not see.
const FOCUS = "scroll-mt-4 scroll-mb-28 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600";
const INPUT_FOCUS = "scroll-mt-4 scroll-mb-28 focus:outline-3 focus:outline-offset-2 focus:outline-brand-600";

/**
 * A date box scaled down with the page (a phone) is too narrow for "MM/DD/YYYY" and the calendar
 * button: it may grow past its field to show the whole date, towards the page's middle so that it
 * stays on the page.
 */
function dateStyle(style: React.CSSProperties, f: SignerField, size: { width: number }): React.CSSProperties {
  const grown = { ...style, minWidth: "calc(10.5ch + 1.6em + 0.75rem)" };
  if (f.x + f.width / 2 <= size.width / 2) return grown;
  return { ...grown, left: "auto", right: `${((size.width - f.x - f.width) / size.width) * 100}%` };
}

export function SigningClient({
  token,
  header,
  pages,
  fields,
  filled = [],
  signer,
  document: doc,
  session,
  embedOrigin,
}: {
  token: string;
  /** The document's title block; replaced by the completion screen once signed or declined. */
  header?: React.ReactNode;
  pages: { width: number; height: number }[];
  fields: SignerField[];
  filled?: FilledField[];
  signer: { name: string; email: string };
  document: { id: string; name: string };
  /** Held after a passcode or a single-use link; sent with every call. */
  session?: string | null;
  /** Where the completion message goes when the page is framed. */
  embedOrigin?: string | null;
}) {
  const t = useT();
  const post = useSignerPost(token, session);
  const fieldName = (type: string): string => t(`sign.fields.${type}`, { defaultValue: type });
  const initial = (f: SignerField): string => {
    if (f.defaultValue) return f.defaultValue;
    if (f.type === "date") return new Date().toISOString().slice(0, 10);
    if (f.type === "full_name") return signer.name;
    if (f.type === "email") return signer.email;
    if (f.type === "checkbox") return "false";
    return "";
  };
  // Reading order (page, then top to bottom, then left to right) is the order Tab visits fields in.
  const ordered = useMemo(() => [...fields].sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x), [fields]);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.id, initial(f)])));
  const [padFor, setPadFor] = useState<SignerField | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [signed, setSigned] = useState<{ everyone: boolean } | null>(null);
  const [declining, setDeclining] = useState(false);
  const [declined, setDeclined] = useState<string | null>(null);
  const hydrated = useHydrated();
  const missing = ordered.filter((f) => f.required && (!values[f.id] || (f.type === "checkbox" && values[f.id] !== "true")));
  // Shown after a Finish with fields left, worked out from the values as they are now: it shrinks as
  // fields are filled and goes away when none is left.
  const [showMissing, setShowMissing] = useState(false);
  const missingError =
    showMissing && missing.length ? t("sign.missingError", { count: missing.length, fields: missing.map((f) => fieldName(f.type)).join(", ") }) : null;

  async function finish() {
    if (missing.length) {
      setShowMissing(true);
      setError(null);
      document.getElementById(`field-${missing[0].id}`)?.focus();
      return;
    }
    setPending(true);
    setError(null);
    const res = await post<{ returnUrl?: string | null; status?: string }>("sign", { values });
    const body = res.body;
    if (!res.ok) {
      setError(body?.error ?? t("sign.signFailed", { status: res.status }));
      setPending(false);
      return;
    }
    postCompletion(embedOrigin, doc.id, "signing_complete");
    const returnUrl: string | null = body?.data?.returnUrl ?? null;
    // Leave a moment for the embedding page to take esign:completed before this frame navigates away.
    if (returnUrl) setTimeout(() => window.location.assign(returnUrl), 200);
    else setSigned({ everyone: body?.data?.status === "completed" });
  }

  if (signed) return <SignedNotice documentName={doc.name} everyone={signed.everyone} links={copyLinks(token, session, signed.everyone)} />;
  // No esign:declined message to a framing page: interface.md 6.2.
  if (declined !== null) return <DeclinedNotice documentName={doc.name} reason={declined} />;

  return (
    <div className="space-y-4">
      {header}
      <p className="text-sm text-slate-600">
        {t("sign.instructions")}
        {filled.length ? ` ${t("sign.earlierValues")}` : ""}
      </p>
      {pages.map((size, i) => (
        <div
          key={i}
          className="relative mx-auto w-full max-w-3xl overflow-hidden rounded border border-slate-200 bg-white shadow-sm"
          style={{ aspectRatio: `${size.width} / ${size.height}` }}
        >
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img
            src={`/api/signer/${token}/page/${i + 1}${session ? `?s=${encodeURIComponent(session)}` : ""}`}
            alt={t("sign.pageAlt", { page: i + 1, count: pages.length })}
            className="absolute inset-0 h-full w-full"
            loading={i < 2 ? "eager" : "lazy"}
          />
          {filled
            .filter((f) => f.page === i + 1)
            .map((f) => {
              const description = t("sign.filledBy", { field: fieldName(f.type), signer: f.signer, value: f.value === null ? t("sign.drawn") : f.value });
              return (
                <div
                  key={f.id}
                  role="img"
                  aria-label={description}
                  title={description}
                  data-filled-field={f.id}
                  className="absolute rounded border border-dashed border-slate-400/70"
                  style={{
                    left: `${(f.x / size.width) * 100}%`,
                    top: `${(f.y / size.height) * 100}%`,
                    width: `${(f.width / size.width) * 100}%`,
                    height: `${(f.height / size.height) * 100}%`,
                  }}
                />
              );
            })}
          {ordered
            .filter((f) => f.page === i + 1)
            .map((f) => {
              const style = {
                left: `${(f.x / size.width) * 100}%`,
                top: `${(f.y / size.height) * 100}%`,
                width: `${(f.width / size.width) * 100}%`,
                height: `${(f.height / size.height) * 100}%`,
              };
              const value = values[f.id] ?? "";
              const label = `${fieldName(f.type)}${f.required ? ` ${t("sign.required")}` : ""}`;
              const ring = value && !(f.type === "checkbox" && value !== "true") ? "border-emerald-500 bg-emerald-50/60" : "border-amber-500 bg-amber-100/70";
              if (f.type === "signature" || f.type === "initial") {
                const given = value.startsWith("data:image/") ? `: ${t("sign.drawn")}` : value ? `: ${value}` : "";
                return (
                  <button
                    key={f.id}
                    id={`field-${f.id}`}
                    type="button"
                    aria-label={label + given}
                    aria-haspopup="dialog"
                    disabled={!hydrated}
                    onClick={() => setPadFor(f)}
                    style={style}
                    className={`absolute flex items-center justify-center overflow-hidden rounded border-2 text-xs font-medium ${ring} ${FOCUS}`}
                  >
                    {value.startsWith("data:image/") ? (
                      <img src={value} alt="" className="max-h-full max-w-full" />
                    ) : value ? (
                      <span className="truncate font-serif italic">{value}</span>
                    ) : (
                      fieldName(f.type)
                    )}
                  </button>
                );
              }
              if (f.type === "checkbox") {
                // Drawn by us (appearance-none) so it can wear the same amber/green box as the other fields.
                return (
                  <span key={f.id} style={style} className="absolute min-h-5 min-w-5">
                    <input
                      id={`field-${f.id}`}
                      type="checkbox"
                      aria-label={label}
                      aria-required={f.required}
                      checked={value === "true"}
                      disabled={f.isReadonly || !hydrated}
                      onChange={(e) => setValues({ ...values, [f.id]: String(e.target.checked) })}
                      className={`peer block h-full w-full cursor-pointer appearance-none rounded border-2 checked:border-emerald-600 checked:bg-emerald-600 ${ring} ${INPUT_FOCUS}`}
                    />
                    <svg
                      aria-hidden
                      viewBox="0 0 16 16"
                      className="pointer-events-none absolute inset-0 hidden h-full w-full p-[12%] text-white peer-checked:block"
                    >
                      <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
                    </svg>
                  </span>
                );
              }
              return (
                <input
                  key={f.id}
                  id={`field-${f.id}`}
                  aria-label={label}
                  aria-required={f.required}
                  type={f.type === "date" ? "date" : f.type === "email" ? "email" : "text"}
                  value={value}
                  readOnly={f.isReadonly || !hydrated}
                  placeholder={fieldName(f.type)}
                  onChange={(e) => setValues({ ...values, [f.id]: e.target.value })}
                  style={f.type === "date" ? dateStyle(style, f, size) : style}
                  className={`absolute rounded border-2 px-1 text-[clamp(8px,1.6vw,14px)] ${ring} ${INPUT_FOCUS}`}
                />
              );
            })}
        </div>
      ))}
      <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 bg-white/95 px-4 py-3">
        <span role="status" className="text-sm text-slate-600">
          {missing.length ? t("sign.left", { count: missing.length }) : t("sign.allComplete")}
        </span>
        {/* Finish first: it is where Tab goes after the last field. */}
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            disabled={pending || !hydrated}
            onClick={finish}
            className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-5 py-2 font-medium text-[var(--brand-text,#fff)] hover:bg-brand-700 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-70"
          >
            {pending ? <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-white border-t-transparent" /> : null}
            {pending ? t("sign.signing") : t("sign.finish")}
          </button>
          <button
            type="button"
            disabled={pending || !hydrated}
            aria-haspopup="dialog"
            onClick={() => setDeclining(true)}
            className="rounded-md border border-red-200 bg-white px-4 py-2 text-sm text-red-700 hover:bg-red-50 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            {t("sign.decline")}
          </button>
        </div>
        {(missingError ?? error) ? (
          <p role="alert" className="w-full text-sm text-red-700">
            {missingError ?? error}
          </p>
        ) : null}
      </div>
      {declining ? (
        <DeclineDialog
          token={token}
          session={session}
          onCancel={() => setDeclining(false)}
          onDeclined={(reason) => {
            setDeclining(false);
            setDeclined(reason);
          }}
        />
      ) : null}
      {padFor ? (
        <SignaturePad
          label={padFor.type === "initial" ? t("sign.yourInitials") : t("sign.yourSignature")}
          onCancel={() => setPadFor(null)}
          onDone={(v) => {
            setValues({ ...values, [padFor.id]: v });
            setPadFor(null);
          }}
        />
      ) : null}
    </div>
  );
}
