"use client";
// The organization's default reminder interval: sends that give no reminderDays take it.
import { useState, useTransition } from "react";
import { saveReminderDefaultAction } from "@/lib/dashboard/actions/settings";
import { FormActions, TextField, type FieldErrors } from "@/components/fields";

export function ReminderDefaultForm({ initial, readOnly }: { initial: number; readOnly: boolean }) {
  const [days, setDays] = useState(String(initial));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(e: React.FormEvent) {
    e.preventDefault();
    // Not a whole number stays as typed, so the server names the problem.
    const reminderDays = /^\d+$/.test(days.trim()) ? Number(days.trim()) : days;
    startTransition(async () => {
      const result = await saveReminderDefaultAction({ reminderDays } as { reminderDays: number });
      setErrors(result.ok ? {} : (result.fieldErrors ?? {}));
      setMessage({ tone: result.ok ? "ok" : "error", text: result.ok ? result.data : result.error });
    });
  }

  return (
    <form onSubmit={submit} aria-label="Signing reminders" className="space-y-4">
      <fieldset disabled={readOnly}>
        <TextField
          label="Remind signers every N days"
          inputMode="numeric"
          value={days}
          onChange={(e) => setDays(e.target.value)}
          error={errors.reminderDays}
          hint="For sends that do not choose: each signer whose turn it is gets a reminder every N days until they sign. 0: none."
        />
      </fieldset>
      <FormActions readOnly={readOnly} pending={pending} message={message}>
        Save reminders
      </FormActions>
    </form>
  );
}
