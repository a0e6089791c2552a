import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native-ish or wasm-loading server packages are loaded by Node at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/client", "@prisma/adapter-pg", "pg", "pino", "pdfjs-dist"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
