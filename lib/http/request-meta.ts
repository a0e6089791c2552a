// Who is asking, read from the request: recorded in audit entries and on the certificate page.
import type { RequestMeta } from "@/lib/esign/types";

export type { RequestMeta };

export function requestMeta(req: Request): Required<RequestMeta> {
  return requestMetaOf(req.headers);
}

/** The same from request headers alone (a page or a server action reads them with next/headers). */
export function requestMetaOf(headers: Pick<Headers, "get">): Required<RequestMeta> {
  // Behind a proxy the client is the first x-forwarded-for hop; configure the proxy to set it.
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const ip = forwarded || headers.get("x-real-ip") || null;
  return { ip, userAgent: headers.get("user-agent")?.slice(0, 512) ?? null };
}
