// Who is asking: recorded in audit entries and on the certificate page.
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

export function requestMeta(req: Request): RequestMeta {
  // Behind a proxy the client is the first x-forwarded-for hop; configure the proxy to set it.
  const forwarded = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const ip = forwarded || req.headers.get("x-real-ip") || null;
  return { ip, userAgent: req.headers.get("user-agent")?.slice(0, 512) ?? null };
}
