"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

export interface NavItem {
  href: string;
  label: string;
  /** Areas that are planned but not built yet are shown, not linked. */
  soon?: boolean;
  /** Shown to administrators only. */
  adminOnly?: boolean;
}

export function Nav({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  const ref = useRef<HTMLElement>(null);
  const isActive = (item: NavItem) => (item.href === "/" ? pathname === "/" : pathname.startsWith(item.href));
  const activeHref = items.find(isActive)?.href;
  // On a phone the tabs are one sideways-scrolling strip: bring the current one into its middle, so the
  // page's own tab is never hidden off the edge. The desktop column does not scroll, so nothing moves there.
  useEffect(() => {
    const nav = ref.current;
    const active = activeHref ? nav?.querySelector<HTMLElement>(`a[href="${activeHref}"]`) : null;
    if (!nav || !active || nav.scrollWidth <= nav.clientWidth) return;
    nav.scrollLeft = active.offsetLeft - (nav.clientWidth - active.offsetWidth) / 2;
  }, [activeHref]);
  return (
    <nav ref={ref} aria-label="Main" className="relative flex gap-1 overflow-x-auto md:flex-col md:overflow-visible">
      {items.map((item) => {
        const active = item.href === activeHref;
        if (item.soon) {
          return (
            <span key={item.href} className="flex shrink-0 items-center justify-between gap-2 rounded-md px-3 py-2 text-sm text-slate-400" aria-disabled="true">
              {item.label}
              <span className="rounded bg-slate-100 px-1.5 py-0.5 text-[10px] uppercase tracking-wide">soon</span>
            </span>
          );
        }
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? "page" : undefined}
            className={`shrink-0 rounded-md px-3 py-2 text-sm font-medium ${active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"}`}
          >
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}
