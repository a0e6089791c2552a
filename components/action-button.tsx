"use client";

import { useState, useTransition } from "react";
import { Spinner } from "@/components/ui";
import type { ActionResult } from "@/lib/dashboard/action";

/**
 * A button that runs one server action: disabled and in its busy words while it runs, then its outcome
 * beside it, a note (role=status) or the refusal (role=alert). `onDone` gives the note, or moves on.
 */
export function ActionButton<T>({
  run,
  onDone,
  label,
  busyLabel,
  spinner,
  className,
  "aria-label": ariaLabel,
  layout = "inline-flex flex-wrap items-center gap-2",
  noteClassName = "text-sm",
  noteTone = "",
}: {
  run: () => Promise<ActionResult<T>>;
  onDone?: (data: T) => string | null | undefined;
  label: string;
  busyLabel: string;
  /** A spinner beside the busy words: "light" on a filled button, "dark" on an outlined one. */
  spinner?: "light" | "dark";
  className: string;
  "aria-label"?: string;
  layout?: string;
  noteClassName?: string;
  /** The colour of a success note (a refusal is red). */
  noteTone?: string;
}) {
  const [pending, start] = useTransition();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <span className={layout}>
      <button
        type="button"
        aria-label={ariaLabel}
        disabled={pending}
        onClick={() =>
          start(async () => {
            setOutcome(null);
            const r = await run();
            if (!r.ok) return setOutcome({ ok: false, text: r.error });
            const note = onDone?.(r.data);
            if (note) setOutcome({ ok: true, text: note });
          })
        }
        className={className}
      >
        {pending && spinner ? <Spinner light={spinner === "light"} /> : null}
        {pending ? busyLabel : label}
      </button>
      {outcome ? (
        <span role={outcome.ok ? "status" : "alert"} className={`${noteClassName} ${outcome.ok ? noteTone : "text-red-700"}`}>
          {outcome.text}
        </span>
      ) : null}
    </span>
  );
}
