"use client";

import { useCallback, useRef, useState } from "react";
import { Dialog, DialogFooter } from "@/components/dialog";

export interface ConfirmQuestion {
  title: string;
  /** What follows from saying yes, announced with the title. */
  description?: React.ReactNode;
  /** The yes button's words, naming the act ("Delete webhook"), never just "OK". */
  confirmLabel: string;
}

/**
 * Asks before something that cannot be undone, in the dashboard's one modal dialog instead of
 * window.confirm: `if (!(await confirm({ ... }))) return;` with `dialog` rendered once by the caller.
 * Cancel (focused first) and Escape answer no; the native dialog gives focus back to the button that asked.
 */
export function useConfirm(): { confirm: (question: ConfirmQuestion) => Promise<boolean>; dialog: React.ReactNode } {
  const [question, setQuestion] = useState<ConfirmQuestion | null>(null);
  const answer = useRef<((yes: boolean) => void) | null>(null);

  const settle = useCallback((yes: boolean) => {
    answer.current?.(yes);
    answer.current = null;
    setQuestion(null);
  }, []);

  const confirm = useCallback(
    (next: ConfirmQuestion) =>
      new Promise<boolean>((resolve) => {
        answer.current?.(false);
        answer.current = resolve;
        setQuestion(next);
      }),
    [],
  );

  const dialog = (
    <Dialog open={question !== null} title={question?.title ?? ""} description={question?.description} alert onClose={() => settle(false)}>
      <DialogFooter onCancel={() => settle(false)} confirmLabel={question?.confirmLabel ?? ""} danger onConfirm={() => settle(true)} />
    </Dialog>
  );
  return { confirm, dialog };
}
