"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";

// Drag-and-drop (or choose) a .docx/.pptx; uploaded with XMLHttpRequest so progress is real.
// A file over the limit is refused here, before any byte is sent (the server refuses it too).
export function UploadDropzone({ folderId, limit }: { folderId: string | null; limit: { bytes: number; message: string } }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [over, setOver] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function upload(file: File) {
    setError(null);
    setDone(null);
    if (file.size > limit.bytes) {
      setError(limit.message);
      return;
    }
    setProgress(0);
    const form = new FormData();
    form.set("file", file);
    if (folderId) form.set("templateFolderId", folderId);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/dashboard/templates");
    xhr.upload.onprogress = (e) => e.lengthComputable && setProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      setProgress(null);
      let body: { message?: string; data?: { name: string } } | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if (xhr.status === 201) {
        setDone(`Uploaded “${body?.data?.name}”.`);
        router.refresh();
      } else setError(body?.message ?? `Upload failed (HTTP ${xhr.status})`);
    };
    xhr.onerror = () => {
      setProgress(null);
      setError("Upload failed: the server could not be reached");
    };
    xhr.send(form);
  }

  return (
    <div className="space-y-2">
      {/* A drop target for the mouse; the keyboard uses the file button inside it. */}
      <section
        aria-label="Upload a template"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          const file = e.dataTransfer.files[0];
          if (file) upload(file);
        }}
        className={`flex flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed p-6 text-center text-sm ${over ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-white"}`}
      >
        <p>Drop a .docx or .pptx here, or</p>
        {/* The input is visually hidden: its keyboard focus shows as a ring on this visible button. */}
        <label className="cursor-pointer rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600">
          choose a file
          <input
            ref={input}
            type="file"
            accept=".docx,.pptx,application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/vnd.openxmlformats-officedocument.presentationml.presentation"
            className="sr-only"
            aria-label="Template file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) upload(file);
              e.target.value = "";
            }}
          />
        </label>
      </section>
      {progress !== null ? (
        <div
          role="progressbar"
          aria-label="Upload progress"
          aria-valuenow={progress}
          aria-valuemin={0}
          aria-valuemax={100}
          className="h-2 overflow-hidden rounded bg-slate-200"
        >
          <div className="h-full bg-brand-600 transition-all" style={{ width: `${progress}%` }} />
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {done ? (
        <p role="status" className="text-sm text-emerald-700">
          {done}
        </p>
      ) : null}
    </div>
  );
}
