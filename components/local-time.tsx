"use client";

import { formatDate } from "@/components/ui";
import { useHydrated } from "@/components/use-hydrated";

/**
 * A moment in the viewer's own time zone ("26 Nov 2026, 10:13 CET"), with the UTC time in its title. The
 * server's HTML shows UTC (it does not know the viewer's zone) until the page runs in the browser.
 */
// Not dateStyle/timeStyle: those cannot be combined with timeZoneName.
const LOCAL: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };

export function LocalTime({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  const utc = formatDate(date);
  const local = hydrated ? date.toLocaleString(undefined, LOCAL) : utc;
  return (
    <time dateTime={iso} title={utc}>
      {local}
    </time>
  );
}
