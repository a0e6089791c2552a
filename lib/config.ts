// The one place that reads the environment. Everything else asks getConfig().
// Values are validated with zod; a bad value stops start-up with a message naming the variable.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

const booleanFromEnv = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

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
  DATA_DIR: z.string().min(1).default("./data"),
  NEXTAUTH_SECRET: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  STORAGE_DRIVER: z.enum(["local"]).default("local"),
  MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(25 * 1024 * 1024),
  GOTENBERG_URL: z.url().optional(),
  PDF_CONVERT_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  LIBREOFFICE_POOL_SIZE: z.coerce.number().int().min(1).optional(),
  SOFFICE_PATH: z.string().min(1).default("soffice"),
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
  /** How long a webhook receiver may take to answer one attempt (decisions.md: 10 s); tests shorten it. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** The instance certificate that digitally signs completed PDFs (a self-signed one is made when unset). */
  SIGNING_P12_PATH: z.string().min(1).optional(),
  SIGNING_P12_PASSWORD: z.string().optional(),
  /** smtp://user:pass@host:587 or smtps://…; unset: mail is only recorded in the outbox. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
  MAIL_FROM: z.string().min(3).default("Quire <no-reply@quire.local>"),
});

export type DatabaseConfig = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

export interface QuireConfig {
  env: "development" | "production" | "test";
  port: number;
  baseUrl: string;
  dataDir: string;
  database: DatabaseConfig;
  nextAuthSecret: string;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  storage: { driver: "local"; root: string };
  maxUploadBytes: number;
  pdfConverter: { kind: "libreoffice" } | { kind: "gotenberg"; url: string };
  /** Longest a single DOCX/PPTX -> PDF conversion may take, with either converter. */
  pdfConvertTimeoutMs: number;
  /** Local converter: one warm soffice per pool slot, each driven by a python3-uno helper. */
  libreoffice: { poolSize: number; sofficePath: string; pythonPath: string };
  rateLimitDisabled: boolean;
  /** OpenAI-compatible chat-completions provider for variables that carry only an aiPrompt. */
  ai: { baseUrl: string; apiKey: string; model: string } | null;
  allowPrivateFetch: boolean;
  /** Tests only: lets POST /api/internal/clock move the service clock (passcode rate limits). */
  testClock: boolean;
  webhooks: { allowPrivate: boolean; retryScale: number; timeoutMs: number };
  signingCertificate: { p12Path?: string; password?: string };
  mail: { smtpUrl: string | null; from: string };
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
      ? { kind: "postgres", url }
      : { kind: "pglite", dataDir: path.resolve(url ? url.slice("pglite:".length) : path.join(dataDir, "pglite")) };
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    dataDir,
    database,
    nextAuthSecret: e.NEXTAUTH_SECRET ?? persistedSecret(dataDir, "nextAuthSecret"),
    logLevel: e.LOG_LEVEL,
    storage: { driver: e.STORAGE_DRIVER, root: path.join(dataDir, "files") },
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    pdfConverter: e.GOTENBERG_URL ? { kind: "gotenberg", url: e.GOTENBERG_URL } : { kind: "libreoffice" },
    pdfConvertTimeoutMs: e.PDF_CONVERT_TIMEOUT_MS,
    libreoffice: {
      // One soffice per core: a conversion keeps one core busy, so more slots only queue inside the OS.
      poolSize: e.LIBREOFFICE_POOL_SIZE ?? Math.max(1, os.availableParallelism()),
      sofficePath: e.SOFFICE_PATH,
      pythonPath: e.PYTHON_UNO_PATH,
    },
    rateLimitDisabled: e.QUIRE_RATE_LIMIT_DISABLED,
    ai: e.AI_BASE_URL && e.AI_MODEL ? { baseUrl: e.AI_BASE_URL.replace(/\/+$/, ""), apiKey: e.AI_API_KEY ?? "", model: e.AI_MODEL } : null,
    allowPrivateFetch: e.QUIRE_ALLOW_PRIVATE_FETCH,
    testClock: e.QUIRE_TEST_CLOCK,
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, retryScale: e.WEBHOOK_RETRY_SCALE, timeoutMs: e.WEBHOOK_TIMEOUT_MS },
    signingCertificate: { p12Path: e.SIGNING_P12_PATH, password: e.SIGNING_P12_PASSWORD },
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM },
  };
}

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
