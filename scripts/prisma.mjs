#!/usr/bin/env node
// Runs the Prisma CLI offline: Prisma 6.19 with its JavaScript engines needs no native engine,
// but the CLI still checks these variables, so they point at a placeholder file.
// Usage: node scripts/prisma.mjs <prisma args>   (npm run prisma -- <args>)
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const placeholder = path.join(root, "prisma", ".engine-placeholder");
const env = {
  ...process.env,
  PRISMA_QUERY_ENGINE_LIBRARY: placeholder,
  PRISMA_SCHEMA_ENGINE_BINARY: placeholder,
  PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: "1",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
// The schema's url is a formality (the adapter in prisma.config.ts connects), but it must look
// like a PostgreSQL URL even when the database is the embedded PGlite.
const dbUrl = env.DATABASE_URL ?? "";
env.PRISMA_DATASOURCE_URL = /^postgres(ql)?:\/\//.test(dbUrl) ? dbUrl : "postgresql://embedded/pglite";

const cli = path.join(root, "node_modules", "prisma", "build", "index.js");
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: "inherit", env, cwd: root });
process.exit(result.status ?? 1);
