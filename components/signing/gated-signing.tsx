"use client";

import { useCallback, useEffect, useState } from "react";
import type { FilledField, SignerField } from "@/lib/esign/signer-fields";
import { useT } from "./i18n";
import { useSignerPost } from "./signer-api";
import { SigningClient } from "./signing-client";

type Verification = { kind: "otp"; channel: "email" | "sms"; destination: string } | { kind: "single_use" };

interface Opened {
  pages: { width: number; height: number }[];
  fields: SignerField[];
  filled: FilledField[];
}

const storageKey = (token: string) => `quire-signer-session:${token}`;

// Tab storage keeps the session across reloads. In a third-party frame the browser may deny
// storage altogether (blocked third-party cookies make sessionStorage throw): signing then works
// without it (the session lives in memory), and a reload asks for the passcode again.
const memory = new Map<string, string>();
const tabStorage = {
  get(token: string): string | null {
    try {
      return window.sessionStorage.getItem(storageKey(token));
    } catch {
      return memory.get(token) ?? null;
    }
  },
  set(token: string, session: string): void {
    try {
      window.sessionStorage.setItem(storageKey(token), session);
    } catch {
      memory.set(token, session);
    }
  },
  remove(token: string): void {
    try {
      window.sessionStorage.removeItem(storageKey(token));
    } catch {
      memory.delete(token);
    }
  },
};

function readSession(token: string): string | null {
  // A redeemed single-use link hands its session over in the fragment; keep it for reloads only
  // in this tab, and take it out of the address bar.
  const fromHash = /^#s=([A-Za-z0-9_-]{20,100})$/.exec(window.location.hash)?.[1];
  if (fromHash) {
    tabStorage.set(token, fromHash);
    history.replaceState(null, "", window.location.pathname + window.location.search);
    return fromHash;
  }
  return tabStorage.get(token);
}

/** The signing page for a signer behind a check: a passcode, or a redeemed one-time link. */
export function GatedSigning({
  token,
  verification,
  document: doc,
  signer,
  embedOrigin,
  header,
}: {
  token: string;
  header: React.ReactNode;
  verification: Verification;
  document: { id: string; name: string };
  signer: { name: string; email: string };
  embedOrigin: string | null;
}) {
  const [session, setSession] = useState<string | null>(null);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [checked, setChecked] = useState(false);
  const t = useT();

  const open = useCallback(
    async (s: string) => {
      const res = await fetch(`/api/signer/${token}`, { headers: { "x-signer-session": s } });
      const body = await res.json().catch(() => null);
      if (res.ok && body?.data?.state === "ready") {
        setSession(s);
        setOpened({ pages: body.data.pages, fields: body.data.fields, filled: body.data.filled });
        return true;
      }
      tabStorage.remove(token);
      return false;
    },
    [token],
  );

  useEffect(() => {
    const s = readSession(token);
    (s ? open(s) : Promise.resolve(false)).finally(() => setChecked(true));
  }, [token, open]);

  if (opened && session)
    return (
      <SigningClient
        token={token}
        header={header}
        pages={opened.pages}
        fields={opened.fields}
        filled={opened.filled}
        signer={signer}
        document={doc}
        session={session}
        embedOrigin={embedOrigin}
      />
    );
  if (!checked) {
    return (
      <>
        {header}
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" /> {t("sign.gate.opening")}
        </p>
      </>
    );
  }
  if (verification.kind === "single_use") {
    return (
      <>
        {header}
        <div role="status" className="rounded-lg border border-slate-200 bg-white p-6 text-center">
          <h2 className="mb-2 text-lg font-semibold">{t("sign.gate.usedTitle")}</h2>
          <p className="text-sm text-slate-600">{t("sign.gate.usedBody")}</p>
        </div>
      </>
    );
  }
  return (
    <>
      {header}
      <PasscodeForm
        token={token}
        channel={verification.channel}
        destination={verification.destination}
        onVerified={async (s) => {
          tabStorage.set(token, s);
          await open(s);
        }}
      />
    </>
  );
}

function PasscodeForm({
  token,
  channel,
  destination,
  onVerified,
}: {
  token: string;
  channel: "email" | "sms";
  destination: string;
  onVerified: (session: string) => Promise<void>;
}) {
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState("");
  const t = useT();
  const [busy, setBusy] = useState<"send" | "verify" | null>(null);
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);

  const call = useSignerPost(token);

  async function send() {
    setBusy("send");
    setMessage(null);
    const r = await call<{ destination: string }>("passcode");
    setBusy(null);
    if (!r.ok) return setMessage({ tone: "error", text: r.body?.error ?? t("sign.gate.notSent") });
    setSent(true);
    setMessage({ tone: "ok", text: t("sign.gate.sent", { destination: r.body?.data?.destination }) });
  }

  async function verify(e: React.FormEvent) {
    e.preventDefault();
    setBusy("verify");
    setMessage(null);
    const r = await call<{ session: string }>("passcode/verify", { code });
    if (!r.ok) {
      setBusy(null);
      return setMessage({ tone: "error", text: r.body?.error ?? t("sign.gate.notChecked") });
    }
    await onVerified(r.body?.data?.session ?? "");
    setBusy(null);
  }

  return (
    <div className="mx-auto max-w-md rounded-lg border border-slate-200 bg-white p-6">
      <h2 className="mb-1 text-lg font-semibold">{t("sign.gate.title")}</h2>
      <p className="mb-4 text-sm text-slate-600">{t(channel === "sms" ? "sign.gate.willSendSms" : "sign.gate.willSendEmail", { destination })}</p>
      <button
        type="button"
        onClick={send}
        disabled={busy !== null}
        className="mb-4 rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-50 disabled:opacity-60"
      >
        {busy === "send" ? t("sign.gate.sending") : sent ? t("sign.gate.sendAgain") : t("sign.gate.send")}
      </button>
      <form onSubmit={verify} className="flex flex-wrap items-end gap-2">
        <label className="flex-1">
          <span className="text-sm font-medium">{t("sign.gate.code")}</span>
          <input
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, "").slice(0, 6))}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="\d{6}"
            required
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-lg tracking-widest"
          />
        </label>
        <button
          type="submit"
          disabled={busy !== null || code.length !== 6}
          className="rounded-md bg-brand-600 px-4 py-2.5 text-sm font-medium text-[var(--brand-text,#fff)] hover:bg-brand-700 disabled:opacity-60"
        >
          {busy === "verify" ? t("sign.gate.checking") : t("sign.gate.continue")}
        </button>
      </form>
      {message ? (
        <p role={message.tone === "error" ? "alert" : "status"} className={`mt-3 text-sm ${message.tone === "error" ? "text-red-700" : "text-emerald-700"}`}>
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
