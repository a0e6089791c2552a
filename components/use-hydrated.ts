"use client";

import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False in the server's HTML and during hydration, true once React runs the page. Inputs stay read-only
 * until then: what someone types into the server-rendered field before hydration would be reset by React.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
