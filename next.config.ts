import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native-ish or wasm-loading server packages are loaded by Node at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/client", "@prisma/adapter-pg", "pg", "pino", "pdfjs-dist", "pdf-lib", "@pdf-lib/fontkit", "@signpdf/signpdf", "@signpdf/signer-p12", "@signpdf/placeholder-pdf-lib", "node-forge", "nodemailer"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
