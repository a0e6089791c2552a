#!/usr/bin/env node
// npm run db:new-migration -- <name>
// Writes prisma/migrations/<timestamp>_<name>/migration.sql with the SQL that takes the schema of the
// latest committed migration to the current prisma/schema.prisma. (`prisma migrate dev` needs a
// shadow database, which the offline JavaScript schema engine cannot drive reliably; `migrate diff`
// between two datamodels needs no database.) Commit schema and migration together.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:new-migration -- <name>");
  process.exit(2);
}
const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
const base = git("log", "-1", "--format=%H", "--", "prisma/migrations");
const previous = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-schema-")), "schema.prisma");
fs.writeFileSync(previous, git("show", `${base}:prisma/schema.prisma`));

const diff = spawnSync(
  process.execPath,
  [
    path.join(root, "scripts", "prisma.mjs"),
    "migrate",
    "diff",
    "--from-schema-datamodel",
    previous,
    "--to-schema-datamodel",
    path.join(root, "prisma", "schema.prisma"),
    "--script",
  ],
  {
    cwd: root,
    encoding: "utf8",
    // A datamodel-to-datamodel diff needs no real database; keep the developer's one out of it.
    env: { ...process.env, DATABASE_URL: "pglite:memory" },
    timeout: 120_000,
  },
);
if (diff.status !== 0) {
  process.stderr.write(diff.stderr);
  process.exit(diff.status ?? 1);
}
const sql = diff.stdout.replace(/^Loaded Prisma config.*\n/m, "").trim();
if (!sql || sql === "-- This is an empty migration.") {
  console.log("The schema matches the latest migration; nothing to write.");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(root, "prisma", "migrations", `${stamp}_${name}`);
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, "migration.sql"), `${sql}\n`);
console.log(`Wrote ${path.relative(root, dir)}/migration.sql`);
