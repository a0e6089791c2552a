"use client";
// Size: one form and one submission: the source, the signers and the send options (wording, expiry, reminders, cc, language).

import { useRouter } from "next/navigation";
import { useState } from "react";
import { SelectField } from "@/components/fields";
import { FormMessage } from "@/components/ui";
import { type LayoutChoice, LayoutSelect, SignerRow } from "./send-parts";
import { catalogues, LANGUAGES, type Language } from "@/lib/i18n";

interface Signer {
  key: number;
  name: string;
  email: string;
}

let nextKey = 1;
const blankSigner = (): Signer => ({ key: nextKey++, name: "", email: "" });

// Step one of "Send for signing": a source (upload or deliverable), the signers in order, and
// whether Quire emails the links. The server turns it into a draft; the field placer is next.
export function NewDocumentForm({
  deliverables,
  layouts,
  initialDeliverableId,
  limit,
  defaultLanguage,
}: {
  deliverables: { id: string; name: string }[];
  layouts: LayoutChoice[];
  initialDeliverableId?: string;
  limit: { bytes: number; message: string };
  /** The organization's default signing language (Settings). */
  defaultLanguage: Language;
}) {
  const router = useRouter();
  const [source, setSource] = useState<"file" | "deliverable" | "layout">(initialDeliverableId ? "deliverable" : "file");
  const [layoutId, setLayoutId] = useState(layouts[0]?.id ?? "");
  // With a layout, one signer per role (by role index): only names and emails are asked for.
  const [roleSigners, setRoleSigners] = useState<Record<number, { name: string; email: string }>>({});
  const layout = layouts.find((l) => l.id === layoutId);
  const [file, setFile] = useState<File | null>(null);
  const [deliverableId, setDeliverableId] = useState(initialDeliverableId ?? deliverables[0]?.id ?? "");
  const [name, setName] = useState("");
  const [signers, setSigners] = useState<Signer[]>(() => [blankSigner()]);
  const [inOrder, setInOrder] = useState(true);
  const [sendEmail, setSendEmail] = useState(true);
  const [subject, setSubject] = useState("");
  const [emailMessage, setEmailMessage] = useState("");
  const [expiresOn, setExpiresOn] = useState("");
  const [reminderDays, setReminderDays] = useState("");
  const [cc, setCc] = useState("");
  const [language, setLanguage] = useState<Language>(defaultLanguage);
  const [progress, setProgress] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);

  const update = (key: number, patch: Partial<Signer>) => setSigners((all) => all.map((s) => (s.key === key ? { ...s, ...patch } : s)));
  const move = (index: number, by: number) =>
    setSigners((all) => {
      const next = [...all];
      const [item] = next.splice(index, 1);
      next.splice(index + by, 0, item);
      return next;
    });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    setMessage(null);
    if (source === "file" && !file) return setMessage({ tone: "error", text: "Choose a PDF, DOCX or PPTX file." });
    if (source === "file" && file && file.size > limit.bytes) return setMessage({ tone: "error", text: limit.message });
    if (source === "deliverable" && !deliverableId) return setMessage({ tone: "error", text: "Choose a deliverable." });
    if (source === "layout" && !layout) return setMessage({ tone: "error", text: "Choose a layout." });
    const form = new FormData();
    if (source === "file" && file) form.set("file", file);
    else if (source === "layout") form.set("layoutId", layoutId);
    else form.set("deliverableId", deliverableId);
    if (name.trim()) form.set("documentName", name.trim());
    const people =
      source === "layout" && layout
        ? layout.roles.map((role, i) => ({ ...(roleSigners[i] ?? { name: "", email: "" }), role }))
        : signers.map((s) => ({ name: s.name, email: s.email }));
    form.set("recipients", JSON.stringify(people.map((s, i) => ({ ...s, name: s.name.trim(), email: s.email.trim(), signingOrder: inOrder ? i + 1 : 1 }))));
    form.set("sendEmail", String(sendEmail));
    if (subject.trim()) form.set("emailSubject", subject.trim());
    if (emailMessage.trim()) form.set("emailMessage", emailMessage.trim());
    // The chosen day, to its end in the sender's time zone.
    if (expiresOn) form.set("expiresAt", new Date(`${expiresOn}T23:59:59`).toISOString());
    if (reminderDays.trim()) form.set("reminderDays", reminderDays.trim());
    const ccEmails = cc
      .split(/[\s,;]+/)
      .map((x) => x.trim())
      .filter(Boolean);
    if (ccEmails.length) form.set("ccEmails", JSON.stringify(ccEmails));
    form.set("language", language);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/dashboard/documents");
    setProgress("Uploading… 0%");
    xhr.upload.onprogress = (ev) => {
      if (!ev.lengthComputable) return;
      const pct = Math.round((ev.loaded / ev.total) * 100);
      setProgress(pct < 100 ? `Uploading… ${pct}%` : "Preparing the PDF…");
    };
    xhr.onload = () => {
      let body: { message?: string; errors?: { field: string; message: string }[]; data?: { documentId: string } } | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if (xhr.status === 201 && body?.data) {
        setProgress("Opening the field placer…");
        router.push(`/documents/${body.data.documentId}/prepare`);
        return;
      }
      setProgress(null);
      const detail = body?.errors?.length ? ` (${body.errors.map((x) => `${x.field}: ${x.message}`).join("; ")})` : "";
      setMessage({ tone: "error", text: `${body?.message ?? `Failed (HTTP ${xhr.status})`}${detail}` });
    };
    xhr.onerror = () => {
      setProgress(null);
      setMessage({ tone: "error", text: "The server could not be reached." });
    };
    xhr.send(form);
  }

  const tab = (value: typeof source, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={source === value}
      onClick={() => setSource(value)}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ${source === value ? "bg-white shadow-sm" : "text-slate-600"}`}
    >
      {label}
    </button>
  );

  return (
    <form onSubmit={submit} className="space-y-6">
      <section className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 className="mb-3 font-medium">Document</h2>
        <div role="tablist" aria-label="Source" className="mb-4 inline-flex rounded-lg bg-slate-100 p-1">
          {tab("file", "Upload a file")}
          {tab("deliverable", "A deliverable")}
          {tab("layout", "Use a layout")}
        </div>
        {source === "layout" ? (
          layouts.length ? (
            <LayoutSelect layouts={layouts} value={layoutId} onChange={setLayoutId} />
          ) : (
            <p className="text-sm text-slate-600">No saved layouts yet: place fields on a document, then choose Save as layout.</p>
          )
        ) : source === "file" ? (
          <label className="block">
            <span className="text-sm font-medium">PDF, DOCX or PPTX</span>
            <input
              type="file"
              name="file"
              accept=".pdf,.docx,.pptx,application/pdf"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:text-brand-700"
            />
          </label>
        ) : deliverables.length ? (
          <SelectField label="Deliverable" value={deliverableId} onChange={(e) => setDeliverableId(e.target.value)}>
            {deliverables.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </SelectField>
        ) : (
          <p className="text-sm text-slate-600">No deliverables yet: generate one from a template first, or upload a file.</p>
        )}
        <label className="mt-4 block">
          <span className="text-sm font-medium">Document name (optional)</span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Defaults to the file or deliverable name"
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
          />
        </label>
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 className="mb-3 font-medium">Signers</h2>
        {source === "layout" && layout ? (
          <ol className="space-y-3">
            {layout.roles.map((role, i) => (
              <SignerRow
                key={`${layout.id}-${role}`}
                marker={role}
                markerClassName="w-24 text-slate-600"
                who={role}
                value={roleSigners[i] ?? { name: "", email: "" }}
                onChange={(patch) => setRoleSigners((all) => ({ ...all, [i]: { ...(all[i] ?? { name: "", email: "" }), ...patch } }))}
              />
            ))}
          </ol>
        ) : (
          <ol className="space-y-3">
            {signers.map((s, i) => (
              <SignerRow
                key={s.key}
                marker={inOrder ? `${i + 1}.` : "•"}
                markerClassName="w-6 text-slate-500"
                who={`Signer ${i + 1}`}
                value={s}
                onChange={(patch) => update(s.key, patch)}
                stacked
              >
                <span className="col-start-2 flex gap-1">
                  <button
                    type="button"
                    aria-label={`Move signer ${i + 1} up`}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    className="rounded border border-slate-300 px-2 py-2 text-xs disabled:opacity-40"
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    aria-label={`Move signer ${i + 1} down`}
                    disabled={i === signers.length - 1}
                    onClick={() => move(i, 1)}
                    className="rounded border border-slate-300 px-2 py-2 text-xs disabled:opacity-40"
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    aria-label={`Remove signer ${i + 1}`}
                    disabled={signers.length === 1}
                    onClick={() => setSigners((all) => all.filter((x) => x.key !== s.key))}
                    className="rounded border border-slate-300 px-2 py-2 text-xs text-red-700 disabled:opacity-40"
                  >
                    ✕
                  </button>
                </span>
              </SignerRow>
            ))}
          </ol>
        )}
        {source === "layout" ? null : (
          <button
            type="button"
            onClick={() => setSigners((all) => [...all, blankSigner()])}
            className="mt-3 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50"
          >
            Add signer
          </button>
        )}
        <div className="mt-4 space-y-2 text-sm">
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={inOrder} onChange={(e) => setInOrder(e.target.checked)} />
            Signers sign one after another, in this order
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={sendEmail} onChange={(e) => setSendEmail(e.target.checked)} />
            Email the signing links (otherwise you hand out the links yourself)
          </label>
          <label className="flex flex-wrap items-center gap-2">
            Signers' language (signing page, emails and passcodes)
            <select
              name="language"
              value={language}
              onChange={(e) => setLanguage(e.target.value as Language)}
              className="rounded-md border border-slate-300 bg-white px-2 py-1"
            >
              {LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {catalogues[l].languageName}
                </option>
              ))}
            </select>
          </label>
        </div>
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 className="mb-3 font-medium">Email and deadline</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <label className="block sm:col-span-2">
            <span className="text-sm font-medium">Subject (optional)</span>
            <input
              value={subject}
              maxLength={255}
              onChange={(e) => setSubject(e.target.value)}
              placeholder="Defaults to “<you> asks you to sign …”"
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
          </label>
          <label className="block sm:col-span-2">
            <span className="text-sm font-medium">Message to the signers (optional)</span>
            <textarea
              value={emailMessage}
              maxLength={5000}
              rows={3}
              onChange={(e) => setEmailMessage(e.target.value)}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
          </label>
          <label className="block">
            <span className="text-sm font-medium">Expires on (optional)</span>
            <input
              type="date"
              value={expiresOn}
              onChange={(e) => setExpiresOn(e.target.value)}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
            <span className="mt-1 block text-xs text-slate-500">Signers are warned a day before.</span>
          </label>
          <label className="block">
            <span className="text-sm font-medium">Remind every N days</span>
            <input
              type="number"
              min={0}
              max={365}
              step={1}
              inputMode="numeric"
              value={reminderDays}
              onChange={(e) => setReminderDays(e.target.value)}
              placeholder="Organization default"
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
            <span className="mt-1 block text-xs text-slate-500">0: no reminders.</span>
          </label>
          <label className="block sm:col-span-2">
            <span className="text-sm font-medium">Cc (optional)</span>
            <input
              value={cc}
              onChange={(e) => setCc(e.target.value)}
              placeholder="legal@example.com, boss@example.com"
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
            <span className="mt-1 block text-xs text-slate-500">They receive the completed document.</span>
          </label>
        </div>
      </section>

      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={progress !== null}
          className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {progress ? <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white" /> : null}
          {source === "layout" ? "Continue to review" : "Continue to fields"}
        </button>
        {progress ? (
          <span role="status" className="text-sm text-slate-600">
            {progress}
          </span>
        ) : null}
        <FormMessage message={message} />
      </div>
    </form>
  );
}
