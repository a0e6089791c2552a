// Builds Quire's one native library, native/dladdr-cache.c, into build/native/ (part of `npm run build`).
// LibreOffice's pool preloads it into soffice when it is there (lib/pdf/office-dependencies.ts); without a
// C compiler, off Linux, or if the compiler refuses the file, nothing is built and soffice runs without
// it, a little slower: a note, not a failure that would stop `npm start` (the tests do fail without it).
// Rebuilt only when the source is newer than the library.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "native", "dladdr-cache.c");
// Where lib/pdf/office-dependencies.ts (findDladdrCache) looks for it.
const DLADDR_CACHE_LIBRARY = path.join(root, "build", "native", "libquire-dladdr-cache.so");

function compiler() {
  for (const cc of [process.env.CC, "cc", "gcc", "clang"].filter(Boolean)) {
    if (spawnSync(cc, ["--version"], { stdio: "ignore" }).status === 0) return cc;
  }
  return null;
}

function build() {
  if (process.platform !== "linux") return "skipped (LibreOffice's dladdr cache is for Linux)";
  if (fs.existsSync(DLADDR_CACHE_LIBRARY) && fs.statSync(DLADDR_CACHE_LIBRARY).mtimeMs >= fs.statSync(source).mtimeMs) return "up to date";
  const cc = compiler();
  if (!cc) return "skipped: no C compiler (cc, gcc or clang); soffice runs without the dladdr cache";
  fs.mkdirSync(path.dirname(DLADDR_CACHE_LIBRARY), { recursive: true });
  // Written beside, then renamed: a soffice starting meanwhile never preloads a half-written library.
  const partial = `${DLADDR_CACHE_LIBRARY}.${process.pid}.tmp`;
  const args = ["-O2", "-Wall", "-Wextra", "-shared", "-fPIC", "-o", partial, source, "-ldl", "-lpthread"];
  const result = spawnSync(cc, args, { encoding: "utf8" });
  if (result.stderr) process.stderr.write(result.stderr);
  if (result.status !== 0) {
    fs.rmSync(partial, { force: true });
    return `not built (${cc} ${args.join(" ")} failed, above); soffice runs without the dladdr cache`;
  }
  fs.renameSync(partial, DLADDR_CACHE_LIBRARY);
  return `built ${path.relative(root, DLADDR_CACHE_LIBRARY)}`;
}

console.log(`native: ${build()}`);
