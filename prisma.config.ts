// Prisma CLI configuration. The CLI runs with the JavaScript schema engine through a driver
// adapter, so no native engine download is needed (see package.json "prisma" scripts).
import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    const url = process.env.DATABASE_URL ?? "";
    if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
      const { PrismaPg } = await import("@prisma/adapter-pg");
      return new PrismaPg({ connectionString: url });
    }
    const { PGlite } = await import("@electric-sql/pglite");
    const { PrismaPGlite } = await import("pglite-prisma-adapter");
    if (url === "pglite:memory") return new PrismaPGlite(new PGlite());
    const dir = url.startsWith("pglite:") ? url.slice("pglite:".length) : path.join(process.env.DATA_DIR ?? "./data", "pglite");
    fs.mkdirSync(dir, { recursive: true });
    return new PrismaPGlite(new PGlite(dir));
  },
});
