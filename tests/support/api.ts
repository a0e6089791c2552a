// A small HTTP client for tests: every call goes over the network to the running server.
import type { Role } from "@/lib/auth/roles";
import type { SeedResult } from "@/lib/orgs/seed";

export interface ApiReply<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

export async function call<T = any>(
  baseUrl: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<ApiReply<T>> {
  const headers: Record<string, string> = { accept: "application/json", ...init.headers };
  let body: BodyInit | undefined;
  if (init.body instanceof FormData || typeof init.body === "string") body = init.body as BodyInit;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  const method = init.method ?? "GET";
  const send = () => fetch(`${baseUrl}${path}`, { method, headers, body, redirect: "manual" });
  // A test that blocked the event loop (spawnSync of the seed CLI) can hand fetch a keep-alive socket
  // the server has already closed; a GET is safe to send again on a fresh one.
  const res = await send().catch((err: { cause?: { code?: string } }) => {
    if (method === "GET" && err.cause?.code === "UND_ERR_SOCKET") return send();
    throw err;
  });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, text, json };
}

export function authHeaders(seed: SeedResult, role: Role = "administrator"): Record<string, string> {
  return { authorization: `Bearer ${seed.keys[role]}`, "x-service-org-id": seed.orgId };
}

/** Calls as one of a seeded organization's keys. */
export function as(baseUrl: string, seed: SeedResult, role: Role = "administrator") {
  return <T = any>(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
    call<T>(baseUrl, path, { ...init, headers: { ...authHeaders(seed, role), ...init.headers } });
}
