import Link from "next/link";

/** "Showing 1–24 of 130" with Previous/Next links; `href(page)` builds each page's URL. */
export function Pager({ page, pageSize, total, href }: { page: number; pageSize: number; total: number; href: (page: number) => string }) {
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  return (
    <nav className="mt-4 flex items-center justify-between text-sm" aria-label="Pages">
      <span className="text-slate-600">
        Showing {first}–{last} of {total}
      </span>
      <span className="flex gap-2">
        {page > 1 ? (
          <Link className="rounded-md border border-slate-300 bg-white px-3 py-1.5" href={href(page - 1)}>
            Previous
          </Link>
        ) : null}
        {last < total ? (
          <Link className="rounded-md border border-slate-300 bg-white px-3 py-1.5" href={href(page + 1)}>
            Next
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
