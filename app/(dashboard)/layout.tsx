import Link from "next/link";
import { Nav, type NavItem } from "@/components/nav";
import { SignOutButton } from "@/components/sign-out-button";
import { requireDashboard } from "@/lib/auth/dashboard";

export const dynamic = "force-dynamic";

const NAV: NavItem[] = [
  { href: "/", label: "Overview" },
  { href: "/templates", label: "Templates" },
  { href: "/deliverables", label: "Deliverables" },
  { href: "/documents", label: "Documents" },
  // Signing links are in there: only administrators get the item (the page says why to others).
  { href: "/outbox", label: "Outbox", adminOnly: true },
  // Secrets and the delivery log: administrators only, as in the API (the page says why to others).
  { href: "/webhooks", label: "Webhooks", adminOnly: true },
  { href: "/settings", label: "Settings" },
  { href: "/api-keys", label: "API keys" },
  { href: "/api-docs", label: "API reference" },
];

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const { user, org, role } = await requireDashboard();
  return (
    <div className="md:flex md:min-h-screen">
      <aside className="border-b border-slate-200 bg-white md:w-60 md:shrink-0 md:border-r md:border-b-0">
        <div className="flex items-center justify-between px-4 py-3 md:block md:py-5">
          <Link href="/" className="text-lg font-semibold tracking-tight text-brand-900">
            Quire
          </Link>
          <p className="truncate text-xs text-slate-500 md:mt-1" title={org.name}>
            {org.name}
          </p>
        </div>
        <div className="px-2 pb-2 md:pb-4">
          <Nav items={NAV.filter((item) => !item.adminOnly || role === "administrator")} />
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        <header className="flex items-center justify-end gap-4 border-b border-slate-200 bg-white px-4 py-2 text-sm">
          <span className="truncate text-slate-600">
            {user.email} · {role}
          </span>
          <SignOutButton />
        </header>
        <main className="mx-auto max-w-5xl px-4 py-6 sm:px-6">{children}</main>
      </div>
    </div>
  );
}
