import type { Metadata } from "next";
import { safeCallbackPath } from "@/lib/auth/login-redirect";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="mb-1 text-xl font-semibold">Sign in to Quire</h1>
        <p className="mb-6 text-sm text-slate-600">Use the login printed when Quire started (or by npm run seed).</p>
        <LoginForm callbackUrl={safeCallbackPath(callbackUrl)} />
      </div>
    </main>
  );
}
