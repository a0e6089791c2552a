"use client";
// Identity providers for external_idv (docs/contract.md "External identity assertions"): a JWKS URL, a
// PEM public key (RS256/ES256) or an HS256 shared secret. Secrets are write-only.
import { useState, useTransition } from "react";
import { addIdentityProviderAction, removeIdentityProviderAction } from "@/lib/dashboard/actions/settings";
import { Badge, FormMessage } from "@/components/ui";
import { useConfirm } from "@/components/confirm";
import type { SigningSettingsView } from "@/lib/esign/settings";
import { FormActions, SelectField, TextAreaField, TextField, type FieldErrors } from "@/components/fields";

type ProviderRow = SigningSettingsView["identityProviders"][number];
type Kind = "jwks" | "pem" | "hs256";

const KIND_LABEL: Record<string, string> = { jwks: "JWKS URL", pem: "PEM public key", hs256: "HS256 secret" };

function keyDescription(p: ProviderRow): React.ReactNode {
  if (p.kind === "jwks") return <span className="break-all font-mono text-xs">{p.jwksUrl}</span>;
  if (p.kind === "pem") return "public key saved";
  return <Badge tone="green">secret saved</Badge>;
}

export function IdentityProviders({ providers, readOnly }: { providers: ProviderRow[]; readOnly: boolean }) {
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [, startTransition] = useTransition();
  const { confirm, dialog } = useConfirm();

  async function remove(p: ProviderRow) {
    const question = {
      title: `Remove identity provider “${p.name}”?`,
      description: "Signing URLs that name it will be refused.",
      confirmLabel: "Remove provider",
    };
    if (!(await confirm(question))) return;
    setRemoving(p.id);
    startTransition(async () => {
      const result = await removeIdentityProviderAction({ id: p.id });
      setMessage({ tone: result.ok ? "ok" : "error", text: result.ok ? result.data : result.error });
      setRemoving(null);
    });
  }

  return (
    <div className="space-y-4">
      {providers.length === 0 ? (
        <p className="text-sm text-slate-500">No identity providers yet.</p>
      ) : (
        <ul aria-label="Identity providers" className="divide-y divide-slate-100 rounded-md border border-slate-200">
          {providers.map((p) => (
            <li key={p.id} data-testid={`provider-${p.name}`} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <div className="min-w-0">
                <p className="font-medium">{p.name}</p>
                <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
                  {KIND_LABEL[p.kind] ?? p.kind}: {keyDescription(p)}
                </p>
              </div>
              {!readOnly ? (
                <button
                  type="button"
                  onClick={() => remove(p)}
                  disabled={removing !== null}
                  aria-label={`Remove ${p.name}`}
                  aria-haspopup="dialog"
                  className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 disabled:opacity-60"
                >
                  {removing === p.id ? "Removing…" : "Remove"}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <FormMessage message={message} />
      {dialog}
      {!readOnly ? <AddProviderForm /> : null}
    </div>
  );
}

function AddProviderForm() {
  const [name, setName] = useState("");
  const [kind, setKind] = useState<Kind>("jwks");
  const [jwksUrl, setJwksUrl] = useState("");
  const [publicKeyPem, setPublicKeyPem] = useState("");
  const [secret, setSecret] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const input = kind === "jwks" ? { name, kind, jwksUrl: jwksUrl.trim() } : kind === "pem" ? { name, kind, publicKeyPem } : { name, kind, secret };
    startTransition(async () => {
      const result = await addIdentityProviderAction(input);
      setErrors(result.ok ? {} : (result.fieldErrors ?? {}));
      setMessage({ tone: result.ok ? "ok" : "error", text: result.ok ? result.data : result.error });
      if (result.ok) {
        setName("");
        setJwksUrl("");
        setPublicKeyPem("");
        setSecret("");
      }
    });
  }

  return (
    <form onSubmit={submit} aria-label="Add an identity provider" className="space-y-3 rounded-md border border-dashed border-slate-300 p-3">
      <h3 className="text-sm font-medium">Add a provider</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Provider name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          hint="The assertion's iss and the recipient's provider must equal it."
        />
        <SelectField label="Verification key" value={kind} onChange={(e) => setKind(e.target.value as Kind)} error={errors.kind}>
          <option value="jwks">JWKS URL (RS256/ES256)</option>
          <option value="pem">PEM public key (RS256/ES256)</option>
          <option value="hs256">HS256 shared secret</option>
        </SelectField>
      </div>
      {kind === "jwks" ? (
        <TextField
          label="JWKS URL"
          value={jwksUrl}
          onChange={(e) => setJwksUrl(e.target.value)}
          inputMode="url"
          placeholder="https://idv.example.com/.well-known/jwks.json"
          error={errors.jwksUrl}
        />
      ) : null}
      {kind === "pem" ? (
        <TextAreaField
          label="Public key (PEM)"
          rows={5}
          value={publicKeyPem}
          onChange={(e) => setPublicKeyPem(e.target.value)}
          placeholder="-----BEGIN PUBLIC KEY-----"
          error={errors.publicKeyPem}
        />
      ) : null}
      {kind === "hs256" ? (
        <TextField
          label="Shared secret"
          type="password"
          autoComplete="new-password"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          error={errors.secret}
          hint="At least 32 characters. Encrypted at rest and never shown again."
        />
      ) : null}
      <FormActions pending={pending} pendingLabel="Adding…" message={message}>
        Add provider
      </FormActions>
    </form>
  );
}
