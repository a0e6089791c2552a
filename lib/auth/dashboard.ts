// Dashboard login (next-auth, credentials) and the signed-in user's workspace context.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { loginPath, PAGE_PATH_HEADER, safeCallbackPath } from "@/lib/auth/login-redirect";
import { verifyPassword } from "@/lib/auth/password";
import { ForbiddenError } from "@/lib/errors";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import type { Role } from "@/lib/auth/roles";

const credentialsSchema = z.object({ email: z.email(), password: z.string().min(1).max(1024) });

let options: NextAuthOptions | undefined;

export function authOptions(): NextAuthOptions {
  options ??= {
    secret: getConfig().nextAuthSecret,
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(raw) {
          const parsed = credentialsSchema.safeParse(raw);
          if (!parsed.success) return null;
          const user = await (await db()).user.findUnique({ where: { email: parsed.data.email.toLowerCase() } });
          // Hash something even for unknown emails so timing does not reveal which emails exist.
          const ok = await verifyPassword(parsed.data.password, user?.passwordHash ?? UNKNOWN_USER_HASH);
          return user && ok ? { id: user.id, email: user.email, name: user.name } : null;
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) token.uid = user.id;
        return token;
      },
      session({ session, token }) {
        if (session.user) (session.user as { id?: string }).id = token.uid as string;
        return session;
      },
    },
  };
  return options;
}

const UNKNOWN_USER_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

export interface DashboardContext {
  user: { id: string; email: string; name: string };
  org: { id: string; name: string };
  role: Role;
}

/** The signed-in user and their workspace, or null (for route handlers, which answer 401 instead). */
export async function dashboardContext(): Promise<DashboardContext | null> {
  const session = await getServerSession(authOptions());
  const userId = (session?.user as { id?: string } | undefined)?.id;
  if (!userId) return null;
  const membership = await (await db()).membership.findFirst({
    where: { userId },
    include: { user: true, org: true },
    orderBy: { createdOn: "asc" },
  });
  if (!membership) return null;
  return {
    user: { id: membership.user.id, email: membership.user.email, name: membership.user.name },
    org: { id: membership.org.id, name: membership.org.name },
    role: membership.role,
  };
}

/** The signed-in user and their workspace, or a redirect to the login page (which brings them back here after). */
export async function requireDashboard(): Promise<DashboardContext> {
  const ctx = await dashboardContext();
  if (!ctx) {
    const page = (await headers()).get(PAGE_PATH_HEADER);
    redirect(page && page !== "/" ? loginPath(safeCallbackPath(page)) : "/login");
  }
  return ctx;
}

export async function requireDashboardAdmin(): Promise<DashboardContext> {
  const ctx = await requireDashboard();
  if (ctx.role !== "administrator") throw new ForbiddenError("Only administrators can do this");
  return ctx;
}
