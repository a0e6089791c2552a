"use client";

import { useActionState } from "react";
import { CopyButton } from "@/components/copy-button";
import { createKeyAction } from "@/lib/dashboard/actions/api-keys";

const ROLE_HELP: Record<string, string> = {
  administrator: "everything, including webhooks",
  contributor: "generate, send for signing, signing URLs",
  user: "generate and download",
  viewer: "read only",
};

export function CreateKeyForm() {
  const [state, action, pending] = useActionState(createKeyAction, null);
  return (
    <div className="space-y-4">
      <form action={action} className="grid gap-3 sm:grid-cols-[1fr_20rem_auto] sm:items-end">
        <label className="block">
          <span className="text-sm font-medium">Name</span>
          <input name="name" required maxLength={100} placeholder="e.g. CRM integration" className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
        </label>
        <label className="block">
          <span className="text-sm font-medium">Role</span>
          <select name="role" defaultValue="contributor" className="mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2">
            {Object.entries(ROLE_HELP).map(([role, help]) => (
              <option key={role} value={role}>
                {role} ({help})
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={pending} className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60">
          {pending ? "Creating…" : "Create key"}
        </button>
      </form>
      {state?.ok === false ? (
        <p role="alert" className="text-sm text-red-700">
          {/* Every problem of the form, as one line. */}
          {state.fieldErrors ? Object.values(state.fieldErrors).join(". ") : state.error}
        </p>
      ) : null}
      {state?.ok ? (
        <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4">
          <p className="text-sm font-medium">
            Key “{state.data.name}” ({state.data.role}) created. Copy it now: it is not shown again.
          </p>
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <code data-testid="new-api-key" className="break-all rounded bg-white px-2 py-1 font-mono text-sm">
              {state.data.key}
            </code>
            <CopyButton value={state.data.key} />
          </div>
        </div>
      ) : null}
    </div>
  );
}
