// Outbound HTTP to addresses a user gave us (image URLs, file links, webhook receivers).
// Only https; every address the host resolves to must be public, checked at connect time (so a
// DNS answer cannot change between the check and the connection); no redirects; bounded size and time.
import dns from "node:dns";
import https from "node:https";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { ValidationError } from "@/lib/errors";

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * Whether an address is anything but public unicast, by the IANA special-purpose registries as
 * ipaddr.js keeps them (private, loopback, link-local, CGNAT, benchmarking, documentation, multicast,
 * NAT64, 6to4, Teredo, …). IPv4-mapped IPv6 is judged by its IPv4 address; other IPv6 must be global
 * unicast (2000::/3), which also refuses IPv4-compatible forms such as ::7f00:1.
 */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.range() !== "unicast") return true;
  return parsed.kind() === "ipv6" && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

export class UnsafeUrlError extends ValidationError {
  constructor(message: string, field: string) {
    super(message, [{ field, message }], "UnsafeUrl");
  }
}

export interface SafeFetchOptions {
  /** Name of the input the URL came from, for error messages. */
  field: string;
  maxBytes: number;
  timeoutMs?: number;
  /** Development and tests only: allow loopback/private receivers (WEBHOOK_ALLOW_PRIVATE and the like). */
  allowPrivate?: boolean;
  signal?: AbortSignal;
  /**
   * Reuse connections (keep-alive) from the pool for this allowPrivate setting. Every new connection
   * still goes through the guarded lookup; a reused one is the same socket, pinned to the address
   * that was checked when it opened.
   */
  keepAlive?: boolean;
}

/** Connections per host:port in a pool (bounds how many requests go to one receiver at once). */
export const POOL_SOCKETS_PER_HOST = 64;
/** An idle pooled connection closes after this, under the 5 s keep-alive most servers grant. */
const POOL_IDLE_MS = 4_000;
/**
 * Keep-alive pools, one per allowPrivate setting, so a connection opened under the loose rule is never
 * reused under the strict one. Node's Agent keeps one pool per host:port inside each.
 */
const pools = new Map<boolean, https.Agent>();

function pooledAgent(allowPrivate: boolean): https.Agent {
  let agent = pools.get(allowPrivate);
  if (!agent) {
    agent = new https.Agent({
      keepAlive: true,
      maxSockets: POOL_SOCKETS_PER_HOST,
      maxFreeSockets: POOL_SOCKETS_PER_HOST,
      timeout: POOL_IDLE_MS,
      scheduling: "lifo",
    });
    pools.set(allowPrivate, agent);
  }
  return agent;
}

export interface SafeResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Validates the URL's form: https only, no credentials. */
export function parseHttpsUrl(raw: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError(`${field} is not a valid URL`, field);
  }
  if (url.protocol !== "https:") throw new UnsafeUrlError(`${field} must be an https:// URL`, field);
  if (url.username || url.password) throw new UnsafeUrlError(`${field} must not contain credentials`, field);
  return url;
}

export async function safeGet(raw: string, options: SafeFetchOptions): Promise<SafeResponse> {
  return safeRequest(raw, { method: "GET" }, options);
}

/** One request under the same rules; the response body is cut at maxBytes instead of refused when `truncate` is set. */
export async function safeRequest(
  raw: string,
  request: { method: "GET" | "POST"; headers?: Record<string, string>; body?: string | Buffer; truncate?: boolean },
  options: SafeFetchOptions,
): Promise<SafeResponse> {
  const url = parseHttpsUrl(raw, options.field);
  const guardedLookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 4);
      const list = addresses as dns.LookupAddress[];
      const unsafe = list.find((a) => isPrivateAddress(a.address));
      if (unsafe && !options.allowPrivate) {
        return callback(
          new UnsafeUrlError(`${options.field} resolves to a private or local address (${unsafe.address}); only public hosts are allowed`, options.field),
          "",
          4,
        );
      }
      if ((lookupOptions as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
  if (net.isIP(url.hostname.replace(/^\[|\]$/g, "")) && isPrivateAddress(url.hostname.replace(/^\[|\]$/g, "")) && !options.allowPrivate) {
    throw new UnsafeUrlError(`${options.field} points to a private or local address; only public hosts are allowed`, options.field);
  }

  return new Promise<SafeResponse>((resolve, reject) => {
    const agent = options.keepAlive ? pooledAgent(Boolean(options.allowPrivate)) : undefined;
    const req = https.request(
      url,
      {
        method: request.method,
        agent,
        lookup: guardedLookup,
        timeout: options.timeoutMs ?? 10_000,
        signal: options.signal,
        headers: { "user-agent": "Quire/1.0", ...request.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes && request.truncate) {
            chunks.push(chunk.subarray(0, Math.max(0, options.maxBytes - (size - chunk.length))));
            res.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
            return;
          }
          if (size > options.maxBytes) {
            req.destroy(
              new ValidationError(
                `${options.field} is larger than ${Math.round(options.maxBytes / 1024 / 1024)} MB`,
                [{ field: options.field, message: "too large" }],
                "RemoteFileTooLarge",
              ),
            );
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () =>
      req.destroy(new ValidationError(`${options.field} did not answer in time`, [{ field: options.field, message: "timed out" }], "RemoteTimeout")),
    );
    req.on("error", (err) => {
      if (err instanceof ValidationError) return reject(err);
      reject(
        new ValidationError(`${options.field} could not be fetched: ${err.message}`, [{ field: options.field, message: "fetch failed" }], "RemoteFetchFailed"),
      );
    });
    req.end(request.body);
  });
}

/** GET that must answer 200; redirects are refused rather than followed (they could lead inside). */
export async function safeDownload(raw: string, options: SafeFetchOptions): Promise<Buffer> {
  const res = await safeGet(raw, options);
  if (res.status >= 300 && res.status < 400) {
    throw new ValidationError(
      `${options.field} redirects elsewhere; give the final URL`,
      [{ field: options.field, message: "redirects are not followed" }],
      "RemoteRedirect",
    );
  }
  if (res.status !== 200) {
    throw new ValidationError(`${options.field} answered HTTP ${res.status}`, [{ field: options.field, message: `HTTP ${res.status}` }], "RemoteFetchFailed");
  }
  return res.body;
}
