// Framing policy for the hosted signing page: Content-Security-Policy frame-ancestors from the
// organization's allowedFrameAncestors (interface.md 2.12). Page components cannot set response
// headers, so it is decided here, before the page renders.
import { NextResponse, type NextRequest } from "next/server";
import { db } from "@/lib/db/client";
import { frameAncestorsForToken, frameAncestorsHeader } from "@/lib/esign/framing";

export async function proxy(req: NextRequest) {
  const token = req.nextUrl.pathname.split("/")[2] ?? "";
  const origins = token === "open" ? null : await frameAncestorsForToken(await db(), token);
  const res = NextResponse.next();
  if (origins) res.headers.set("content-security-policy", frameAncestorsHeader(origins));
  return res;
}

export const config = { matcher: ["/sign/:token"] };
