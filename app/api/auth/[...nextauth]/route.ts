import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/dashboard";

// Options are built per request (lazily) so `next build` never reads secrets or the database.
async function handler(req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(req as never, { params: await ctx.params } as never, authOptions());
}

export { handler as GET, handler as POST };
