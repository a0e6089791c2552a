"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
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
        autoFocus
        required
        aria-label="Folder name"
        placeholder="Folder name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        className="rounded-md border border-slate-300 px-3 py-2 text-sm"
      />
      <button disabled={pending} className="rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white disabled:opacity-60">
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

export function FolderMenu({ id, name, parentId }: { id: string; name: string; parentId: string | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <span className="flex flex-wrap items-center gap-2 text-sm">
      <button
        type="button"
        disabled={pending}
        onClick={() => {
          const next = window.prompt("Rename folder", name);
          if (!next || next === name) return;
          start(async () => {
            const result = await renameFolderAction({ id, name: next });
            if (!result.ok) setError(result.error);
          });
        }}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5"
      >
        Rename folder
      </button>
      <button
        type="button"
        disabled={pending}
        onClick={() => {
          if (!window.confirm(`Delete the folder “${name}”?`)) return;
          start(async () => {
            const result = await deleteFolderAction({ id });
            if (result.ok) router.push(parentId ? `/templates?folder=${parentId}` : "/templates");
            else setError(result.error);
          });
        }}
        className="rounded-md border border-red-200 px-3 py-1.5 text-red-700"
      >
        Delete folder
      </button>
      {error ? (
        <span role="alert" className="w-full text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}
