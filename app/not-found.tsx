import type { Metadata } from "next";
import { NotFoundView } from "@/components/not-found-view";

export const metadata: Metadata = { title: "Page not found" };

// Any URL no page answers (Next.js's default page would follow the visitor's dark colour scheme
// with none of Quire's look).
export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <NotFoundView />
    </main>
  );
}
