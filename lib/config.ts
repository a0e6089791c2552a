// The one place that reads the environment. Everything else asks getConfig().
// Values are validated with zod; a bad value stops start-up with a message naming the variable.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { S3StorageOptions } from "@/lib/storage/s3";

/** true/1 or false/0; unset or empty is `unset`. */
const flagFromEnv = (unset: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? unset : v === "true" || v === "1"));
const booleanFromEnv = flagFromEnv(false);

/**
 * Where QUIRE_TEST_CRASH_AT may stop the server: around the last signature and its completion, and
 * mid bulk send (a row's document sent, the row not yet marked).
 */
export const CRASH_POINTS = ["before-signature-commit", "after-signature-commit", "during-seal", "after-seal", "bulk-row-sent"] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/**
 * A library preloaded into soffice: unset (undefined) leaves the pool's default, the word `off` means
 * none (null), anything else must be an existing library's absolute path.
 */
function preloadedLibrary(off: string, what: string) {
  return z
    .string()
    .optional()
    .refine((v) => !v || v === off || (path.isAbsolute(v) && fs.existsSync(v)), {
      message: `must be "${off}" or the absolute path of an existing ${what}`,
    })
    .transform((v) => (v === off ? null : v || undefined));
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  BASE_URL: z.url().optional(),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^(postgres(ql)?:\/\/|pglite:)/.test(v), {
      message: "must be a postgres:// URL or pglite:<directory>",
    }),
  /** false behind a pooler in transaction mode (PgBouncer before 1.21): it cannot keep named statements. */
  DATABASE_PREPARED_STATEMENTS: flagFromEnv(true),
  DATA_DIR: z.string().min(1).default("./data"),
  NEXTAUTH_SECRET: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** Another S3-compatible service (MinIO, R2, …); unset for AWS. */
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: booleanFromEnv,
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PREFIX: z.string().default(""),
  /** Vercel Cron (and any scheduler) calls /api/cron/webhooks with `Authorization: Bearer <CRON_SECRET>`. */
  CRON_SECRET: z.string().min(16).optional(),
  /** Set by the platform: a serverless runtime has no disk that outlives a request. */
  VERCEL: z.string().optional(),
  AWS_LAMBDA_FUNCTION_NAME: z.string().optional(),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  GOTENBERG_URL: z.url().optional(),
  PDF_CONVERT_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  LIBREOFFICE_POOL_SIZE: z.coerce.number().int().min(1).optional(),
  LIBREOFFICE_MAX_CONVERSIONS: z.coerce.number().int().min(1).optional(),
  LIBREOFFICE_MAX_MEMORY_MB: z.coerce.number().int().min(64).optional(),
  SOFFICE_PATH: z.string().min(1).default("soffice"),
  /** Where local LibreOffice works (profiles, its temporary files, documents); unset: memory when it can. */
  LIBREOFFICE_TMPDIR: z
    .string()
    .optional()
    .refine((v) => !v || (path.isAbsolute(v) && fs.existsSync(v) && fs.statSync(v).isDirectory()), {
      message: "must be the absolute path of an existing directory",
    }),
  /** "system": the C library's malloc; a path: that library, preloaded; unset: jemalloc when installed. */
  LIBREOFFICE_MALLOC: preloadedLibrary("system", "malloc library (such as /usr/lib/x86_64-linux-gnu/libjemalloc.so.2)"),
  /** "off": soffice without Quire's dladdr cache; a path: that build of it; unset: the one `npm run build` made, if any. */
  LIBREOFFICE_DLADDR_CACHE: preloadedLibrary("off", "library (such as build/native/libquire-dladdr-cache.so, made by npm run build)"),
  PYTHON_UNO_PATH: z.string().min(1).default("/usr/bin/python3"),
  QUIRE_RATE_LIMIT_DISABLED: booleanFromEnv,
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().optional(),
  /** Development and tests only: lets image URLs and file links reach private addresses. */
  QUIRE_ALLOW_PRIVATE_FETCH: booleanFromEnv,
  QUIRE_TEST_CLOCK: booleanFromEnv,
  /** Development and tests only: webhook receivers on loopback/private addresses. */
  WEBHOOK_ALLOW_PRIVATE: booleanFromEnv,
  /** Multiplies the webhook retry back-off (1 min … 8 h); tests use a tiny factor. */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(100).default(1),
  /** Multiplies the completion job's lease and retry back-off; tests use a small factor. */
  COMPLETION_RETRY_SCALE: z.coerce.number().positive().max(100).default(1),
  /** How long a bulk send row's claim holds before another worker may take the row up; tests shorten it. */
  BULK_SEND_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Tests only: the server kills itself (SIGKILL) once at each of these points (comma-separated) of the last signature. */
  QUIRE_TEST_CRASH_AT: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(CRASH_POINTS, { message: `must list points among ${CRASH_POINTS.join(", ")}` })))
    .optional(),
  /** Tests only: the first N seals fail. */
  QUIRE_TEST_FAIL_SEAL: z.coerce.number().int().min(0).default(0),
  /** Tests only: a request waits at a named point while the test's marker file for it exists (lib/server/test-faults.ts). */
  QUIRE_TEST_HOLDS: booleanFromEnv,
  /** How long a webhook receiver may take to answer one attempt (docs/contract.md "Webhooks": 10 s); tests shorten it. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** The instance certificate that digitally signs completed PDFs (a self-signed one is made when unset). */
  SIGNING_P12_PATH: z.string().min(1).optional(),
  /** RFC 3161 time-stamping service: seals become PAdES B-LT (signature timestamp + validation data). */
  TSA_URL: z.url({ protocol: /^https?$/, message: "must be an http:// or https:// URL" }).optional(),
  SIGNING_P12_PASSWORD: z.string().optional(),
  /** smtp://user:pass@host:587 or smtps://…; unset: mail is only recorded in the outbox. */
  /** Graceful shutdown: the longest SIGTERM/SIGINT may take to finish requests, deliveries and close. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(25_000),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Quire <no-reply@quire.local>"),
});

export type DatabaseConfig = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string; preparedStatements: boolean };

export interface QuireConfig {
  env: "development" | "production" | "test";
  port: number;
  baseUrl: string;
  dataDir: string;
  database: DatabaseConfig;
  nextAuthSecret: string;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  storage: { driver: "local"; root: string } | ({ driver: "s3" } & S3StorageOptions);
  maxUploadBytes: number;
  pdfConverter: { kind: "libreoffice" } | { kind: "gotenberg"; url: string };
  /** Longest a single DOCX/PPTX -> PDF conversion may take, with either converter. */
  pdfConvertTimeoutMs: number;
  /** Local converter: one warm soffice per pool slot, each driven by a python3-uno helper. */
  libreoffice: {
    poolSize: number;
    sofficePath: string;
    pythonPath: string;
    maxConversionsPerProcess?: number;
    maxResidentBytes?: number;
    /** Undefined: the pool's default (jemalloc when installed); null: the C library's. */
    mallocLibrary?: string | null;
    /** Undefined: the pool's default (the built dladdr cache, if any); null: none. */
    dladdrCache?: string | null;
    /** Undefined: the pool's default (/dev/shm when it is memory with room, else the system's temp directory). */
    tmpDir?: string;
  };
  rateLimitDisabled: boolean;
  /**
   * Where an API request's key is admitted (ADR 0021): "database", one statement per request whose count
   * every instance shares; "process", in memory, for a database this process alone opens (the embedded
   * PGlite), which notifies it when a key or a plan changes.
   */
  keyAdmission: "database" | "process";
  /** OpenAI-compatible chat-completions provider for variables that carry only an aiPrompt. */
  ai: { baseUrl: string; apiKey: string; model: string } | null;
  allowPrivateFetch: boolean;
  /** Tests only: lets POST /api/internal/clock move the service clock (passcode rate limits). */
  testClock: boolean;
  webhooks: { allowPrivate: boolean; retryScale: number; timeoutMs: number };
  /** Bearer secret of /api/cron/webhooks (serverless deployments without a long-lived worker). */
  cronSecret: string | null;
  /** A serverless platform (Vercel, AWS Lambda): no long-lived process, no persistent disk. */
  serverless: boolean;
  signingCertificate: { p12Path?: string; password?: string };
  completion: { retryScale: number };
  bulkSend: { leaseMs: number };
  /** Fault injection for tests (QUIRE_TEST_CRASH_AT, QUIRE_TEST_FAIL_SEAL, QUIRE_TEST_HOLDS). */
  testFaults: { crashAt: CrashPoint[]; failSeals: number; holds: boolean };
  /** RFC 3161 time-stamping service for seals (TSA_URL); null: PAdES B-B. */
  tsaUrl: string | null;
  mail: { smtpUrl: string | null; from: string };
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {}

/** Reads (or creates, once) a secret persisted under DATA_DIR, so a fresh machine needs no setup. */
export function persistedSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, "secrets.json");
  fs.mkdirSync(dataDir, { recursive: true });
  let secrets: Record<string, string> = {};
  if (fs.existsSync(file)) secrets = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!secrets[name]) {
    secrets[name] = crypto.randomBytes(32).toString("base64url");
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    fs.renameSync(tmp, file);
  }
  return secrets[name];
}

export type Env = Record<string, string | undefined>;

export function parseConfig(env: Env): QuireConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`Invalid configuration: ${details}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const url = e.DATABASE_URL;
  const database: DatabaseConfig =
    url && !url.startsWith("pglite:")
      ? { kind: "postgres", url, preparedStatements: e.DATABASE_PREPARED_STATEMENTS }
      : { kind: "pglite", dataDir: path.resolve(url ? url.slice("pglite:".length) : path.join(dataDir, "pglite")) };
  const serverless = Boolean(e.VERCEL || e.AWS_LAMBDA_FUNCTION_NAME);
  if (serverless) {
    // Each invocation may run on a fresh machine: an embedded database or local files would vanish.
    const missing = [
      database.kind === "pglite"
        ? "DATABASE_URL must name a PostgreSQL server (postgres://…): the embedded PGlite database cannot live on a serverless platform"
        : null,
      e.STORAGE_DRIVER === "local" ? "STORAGE_DRIVER must be s3 (with S3_BUCKET): local disk does not persist on a serverless platform" : null,
      e.NEXTAUTH_SECRET ? null : "NEXTAUTH_SECRET must be set: a generated one would differ between instances",
      e.GOTENBERG_URL ? null : "GOTENBERG_URL must be set: LibreOffice cannot run inside a serverless function",
    ].filter(Boolean);
    if (missing.length) throw new ConfigError(`Invalid configuration for a serverless runtime: ${missing.join("; ")}`);
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    dataDir,
    database,
    nextAuthSecret: e.NEXTAUTH_SECRET ?? persistedSecret(dataDir, "nextAuthSecret"),
    logLevel: e.LOG_LEVEL,
    storage: storageConfig(e, dataDir),
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    pdfConverter: e.GOTENBERG_URL ? { kind: "gotenberg", url: e.GOTENBERG_URL } : { kind: "libreoffice" },
    pdfConvertTimeoutMs: e.PDF_CONVERT_TIMEOUT_MS,
    libreoffice: {
      // One soffice per core: a conversion keeps one core busy, so more slots only queue inside the OS.
      poolSize: e.LIBREOFFICE_POOL_SIZE ?? Math.max(1, os.availableParallelism()),
      sofficePath: e.SOFFICE_PATH,
      pythonPath: e.PYTHON_UNO_PATH,
      // Unset: the pool's own defaults (lib/pdf/libreoffice.ts).
      maxConversionsPerProcess: e.LIBREOFFICE_MAX_CONVERSIONS,
      maxResidentBytes: e.LIBREOFFICE_MAX_MEMORY_MB === undefined ? undefined : e.LIBREOFFICE_MAX_MEMORY_MB * 1024 * 1024,
      mallocLibrary: e.LIBREOFFICE_MALLOC,
      dladdrCache: e.LIBREOFFICE_DLADDR_CACHE,
      tmpDir: e.LIBREOFFICE_TMPDIR || undefined,
    },
    rateLimitDisabled: e.QUIRE_RATE_LIMIT_DISABLED,
    keyAdmission: database.kind === "pglite" ? "process" : "database",
    ai: e.AI_BASE_URL && e.AI_MODEL ? { baseUrl: e.AI_BASE_URL.replace(/\/+$/, ""), apiKey: e.AI_API_KEY ?? "", model: e.AI_MODEL } : null,
    allowPrivateFetch: e.QUIRE_ALLOW_PRIVATE_FETCH,
    testClock: e.QUIRE_TEST_CLOCK,
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, retryScale: e.WEBHOOK_RETRY_SCALE, timeoutMs: e.WEBHOOK_TIMEOUT_MS },
    cronSecret: e.CRON_SECRET ?? null,
    serverless,
    signingCertificate: { p12Path: e.SIGNING_P12_PATH, password: e.SIGNING_P12_PASSWORD },
    tsaUrl: e.TSA_URL ?? null,
    completion: { retryScale: e.COMPLETION_RETRY_SCALE },
    bulkSend: { leaseMs: e.BULK_SEND_LEASE_SECONDS * 1000 },
    testFaults: { crashAt: e.QUIRE_TEST_CRASH_AT ?? [], failSeals: e.QUIRE_TEST_FAIL_SEAL, holds: e.QUIRE_TEST_HOLDS },
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}

function storageConfig(e: z.infer<typeof envSchema>, dataDir: string): QuireConfig["storage"] {
  if (e.STORAGE_DRIVER === "local") return { driver: "local", root: path.join(dataDir, "files") };
  if (!e.S3_BUCKET) throw new ConfigError("Invalid configuration: S3_BUCKET: required when STORAGE_DRIVER is s3");
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY))
    throw new ConfigError("Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither");
  return {
    driver: "s3",
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
    prefix: e.S3_PREFIX,
  };
}

/**
 * Every environment variable Quire reads: the ones above, plus those read before this module
 * (next.config.ts, the seed CLI) or by Node and Next.js themselves. Deployment files may set only these.
 */
export const KNOWN_ENV_VARS: readonly string[] = [
  ...Object.keys(envSchema.shape),
  "SEED_ADMIN_PASSWORD",
  "NEXT_OUTPUT",
  "HOSTNAME",
  "NEXT_TELEMETRY_DISABLED",
  // Next.js then leaves SIGTERM/SIGINT to Quire's graceful shutdown (lib/server/shutdown.ts).
  "NEXT_MANUAL_SIG_HANDLE",
  "NODE_EXTRA_CA_CERTS",
  // V8's settings for the server, as scripts/serve.sh sets them (docs/adr/0023).
  "NODE_OPTIONS",
];

let cached: QuireConfig | undefined;

export function getConfig(): QuireConfig {
  if (!cached) {
    cached = parseConfig(process.env);
    // next-auth v4 reads these two from the environment.
    process.env.NEXTAUTH_URL ??= cached.baseUrl;
    process.env.NEXTAUTH_SECRET ??= cached.nextAuthSecret;
  }
  return cached;
}
