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
  const res = await fetch(`${baseUrl}${path}`, { method: init.method ?? "GET", headers, body, redirect: "manual" });
  const text = await res.text();
  let json: any = undefined;
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
