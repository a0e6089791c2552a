import Link from "next/link";

/** Quire's "page not found": the dashboard's own (inside its frame) and the site-wide one for unknown URLs. */
export function NotFoundView({ homeHref = "/", homeLabel = "Go to the overview" }: { homeHref?: string; homeLabel?: string }) {
  return (
    <section aria-labelledby="not-found-title" className="mx-auto max-w-md rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 id="not-found-title" className="mt-1 text-xl font-semibold tracking-tight text-slate-900">
        Page not found
      </h1>
      <p className="mt-2 text-sm text-slate-600">The link may be mistyped, or what it pointed to was deleted or belongs to another workspace.</p>
      <Link href={homeHref} className="mt-5 inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
        {homeLabel}
      </Link>
    </section>
  );
}
