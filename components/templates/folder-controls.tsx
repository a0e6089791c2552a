"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Dialog, DialogFooter } from "@/components/dialog";
import { createFolderAction, deleteFolderAction, renameFolderAction } from "@/lib/dashboard/actions/templates";

export function NewFolderButton({ parentId }: { parentId: string | null }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50"
      >
        New folder
      </button>
    );
  }
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const result = await createFolderAction({ name, parentId });
          if (result.ok) {
            setOpen(false);
            setName("");
            setError(null);
          } else setError(result.error);
        });
      }}
    >
      <input
        // Focused when the form opens (a ref, not autoFocus: the form appears on a click, not on page load).
        ref={(el) => el?.focus()}
        required
        aria-label="Folder name"
        placeholder="Folder name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        className="rounded-md border border-slate-300 px-3 py-2 text-sm"
      />
      <button type="submit" disabled={pending} className="rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white disabled:opacity-60">
        {pending ? "Creating…" : "Create folder"}
      </button>
      <button type="button" onClick={() => setOpen(false)} className="text-sm text-slate-600">
        Cancel
      </button>
      {error ? (
        <span role="alert" className="w-full text-sm text-red-700">
          {error}
        </span>
      ) : null}
    </form>
  );
}

const SECONDARY = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50";

/** Rename and Delete for the open folder, each asking in an in-page dialog that also shows any refusal. */
export function FolderMenu({ id, name, parentId }: { id: string; name: string; parentId: string | null }) {
  const router = useRouter();
  const [asking, setAsking] = useState<"rename" | "delete" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const close = () => {
    setAsking(null);
    setError(null);
  };
  return (
    <span className="flex flex-wrap items-center gap-2 text-sm">
      <button type="button" onClick={() => setAsking("rename")} className={SECONDARY}>
        Rename folder
      </button>
      <button type="button" onClick={() => setAsking("delete")} className="rounded-md border border-red-200 bg-white px-3 py-1.5 text-red-700 hover:bg-red-50">
        Delete folder
      </button>
      <Dialog open={asking === "rename"} title="Rename folder" onClose={close}>
        <form
          className="grid gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            const next = String(new FormData(e.currentTarget).get("name") ?? "").trim();
            if (!next || next === name) return close();
            start(async () => {
              const result = await renameFolderAction({ id, name: next });
              if (result.ok) close();
              else setError(result.error);
            });
          }}
        >
          <label className="block text-sm">
            <span className="font-medium">Folder name</span>
            <input
              name="name"
              required
              defaultValue={name}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-rename-error` : undefined}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
          </label>
          <DialogFooter problem={error} problemId={`${id}-rename-error`} onCancel={close} confirmLabel="Save" pending={pending} pendingLabel="Working…" />
        </form>
      </Dialog>
      <Dialog open={asking === "delete"} title={`Delete the folder “${name}”?`} onClose={close}>
        <form
          className="grid gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            start(async () => {
              const result = await deleteFolderAction({ id });
              if (result.ok) router.push(parentId ? `/templates?folder=${parentId}` : "/templates");
              else setError(result.error);
            });
          }}
        >
          <p className="text-sm text-slate-600">Only an empty folder can be deleted.</p>
          <DialogFooter problem={error} onCancel={close} confirmLabel="Delete" pending={pending} pendingLabel="Working…" danger />
        </form>
      </Dialog>
    </span>
  );
}
