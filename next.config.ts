import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native-ish or wasm-loading server packages are loaded by Node at run time, not bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/client",
    "@prisma/adapter-pg",
    "pg",
    "pino",
    "mupdf",
    "@libpdf/core",
    "node-forge",
    "nodemailer",
  ],
  // The Docker image builds with NEXT_OUTPUT=standalone (server.js plus only the traced node_modules);
  // `npm start` and the tests keep the ordinary output served by `next start`.
  ...(process.env.NEXT_OUTPUT === "standalone" ? { output: "standalone" as const } : {}),
  poweredByHeader: false,
  // The hosted service's SDKs call /turbosign/…: the same operations as /esign/… (docs/contract.md "Clients of the hosted service").
  async rewrites() {
    return [
      { source: "/turbosign/:path*", destination: "/esign/:path*" },
      // Browsers and crawlers ask for /favicon.ico without reading the page's icon link.
      { source: "/favicon.ico", destination: "/favicon.svg" },
    ];
  },
  typedRoutes: false,
};

export default nextConfig;
