// Quire's dladdr cache (native/dladdr-cache.c), preloaded into a Python process that asks dladdr() the
// same questions through it and straight from glibc: the answers must be glibc's, over and over (from
// the cache), and still glibc's after a library is unloaded from under a cached answer.
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { findDladdrCache } from "@/lib/pdf/office-dependencies";

const ROOT = path.resolve(__dirname, "..", "..");

/** Prints JSON: each probe's answer through the preload (LD_PRELOAD) and from libc itself. */
const PROBE = `
import ctypes, json, sys
class DlInfo(ctypes.Structure):
    _fields_ = [("fname", ctypes.c_char_p), ("fbase", ctypes.c_void_p), ("sname", ctypes.c_char_p), ("saddr", ctypes.c_void_p)]
def bind(lib):
    f = lib.dladdr
    f.argtypes = [ctypes.c_void_p, ctypes.POINTER(DlInfo)]
    f.restype = ctypes.c_int
    return f
preloaded = bind(ctypes.CDLL(None))          # the first dladdr in lookup order: the preloaded one
glibc = bind(ctypes.CDLL("libc.so.6"))       # libc's own
def answer(f, addr):
    info = DlInfo()
    found = f(addr, ctypes.byref(info))
    if not found:
        return [0]
    return [found, info.fname and info.fname.decode(), info.fbase, info.sname and info.sname.decode(), info.saddr]
def both(addr):
    return {"preload": answer(preloaded, addr), "glibc": answer(glibc, addr)}
addr = lambda fn: ctypes.cast(fn, ctypes.c_void_p).value
libc = ctypes.CDLL("libc.so.6")
libm = ctypes.CDLL("libm.so.6")
probes = [addr(libc.strlen), addr(libc.strlen) + 3, addr(libc.malloc), addr(libm.cos), addr(libm.cos) + 1, 0, 1]
rounds = [[both(a) for a in probes] for _ in range(3)]
# A library this process has not loaded: asked about, then unloaded (no handle left), then asked again.
maps = open("/proc/self/maps").read()
name, symbol = next(c for c in json.loads(sys.argv[1]) if c[0] not in maps)
lib = ctypes.CDLL(name)
inside = addr(getattr(lib, symbol))
before = [both(inside), both(inside)]
handle = lib._handle
del lib
import _ctypes
_ctypes.dlclose(handle)
unloaded = name not in open("/proc/self/maps").read()
after = both(inside)
hits = ctypes.CDLL(None).quire_dladdr_cache_hits
hits.restype = ctypes.c_ulong
print(json.dumps({"rounds": rounds, "before": before, "after": after, "unloaded": unloaded, "hits": hits()}))
`;

describe("Quire's dladdr cache for soffice", () => {
  let library: string;
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(ROOT, "scripts", "build-native.mjs")], { cwd: ROOT });
    library = findDladdrCache()!;
    expect(library, "npm run build compiles it on a machine with a C compiler").toBeTruthy();
  });

  it("compiles without a warning (npm run build reports warnings but does not stop on them)", () => {
    const source = path.join(ROOT, "native", "dladdr-cache.c");
    const run = spawnSync("cc", ["-fsyntax-only", "-Wall", "-Wextra", "-Werror", source], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("answers as glibc does, again and again from the cache, and after a library is unloaded", () => {
    // Libraries every Debian system has (PAM logs in, libcap2 comes with it) and Python does not load.
    const candidates = JSON.stringify([
      ["libcap.so.2", "cap_init"],
      ["libuuid.so.1", "uuid_generate"],
      ["libpam.so.0", "pam_start"],
    ]);
    const out = execFileSync("python3", ["-c", PROBE, candidates], { env: { ...process.env, LD_PRELOAD: library }, encoding: "utf8" });
    const result = JSON.parse(out) as {
      rounds: { preload: unknown[]; glibc: unknown[] }[][];
      before: { preload: unknown[]; glibc: unknown[] }[];
      after: { preload: unknown[]; glibc: unknown[] };
      unloaded: boolean;
      hits: number;
    };
    for (const round of result.rounds) for (const probe of round) expect(probe.preload).toEqual(probe.glibc);
    // The functions' own addresses were found (their library and name), an address inside one names the
    // function it is in, and null or the first page are not found.
    const [strlen, insideStrlen, , cos, , nullAddress, firstPage] = result.rounds[0].map((p) => p.preload);
    expect(strlen[1]).toMatch(/libc\.so\.6$/);
    expect(insideStrlen[4]).toBe(strlen[4]);
    expect(cos[1]).toMatch(/libm\.so\.6$/);
    expect(nullAddress).toEqual([0]);
    expect(firstPage).toEqual([0]);
    // Rounds 2 and 3 came from the cache (five found addresses, twice: what was not found is not kept), and
    // the second question about the library that is then unloaded.
    expect(result.hits).toBeGreaterThanOrEqual(11);
    // Cached while the library was loaded; once it is unloaded glibc no longer finds it, nor does the cache.
    for (const probe of result.before) {
      expect(probe.preload[1]).toMatch(/lib(cap|uuid|pam)\.so/);
      expect(probe.preload).toEqual(probe.glibc);
    }
    expect(result.unloaded).toBe(true);
    expect(result.after.glibc).toEqual([0]);
    expect(result.after.preload).toEqual([0]);
  });
});
