import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/dashboard";
import { observed } from "@/lib/http/observe";

// Options are built per request (lazily) so `next build` never reads secrets or the database.
const handler = observed(async (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }): Promise<Response> => {
  return NextAuth(req as never, { params: await ctx.params } as never, authOptions());
});

export { handler as GET, handler as POST };
