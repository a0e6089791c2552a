// PizZip compresses and inflates with pako, zlib ported to JavaScript: a seventh of a render's CPU
// went to pako's deflate alone. Node's own zlib does the same raw DEFLATE natively, so PizZip's
// DEFLATE entry is pointed at it (same level: the default). Registered once per PizZip instance.
// And how a rendered package is written out.
import zlib from "node:zlib";
import PizZip from "pizzip";

interface Compression {
  compress: (input: Uint8Array, options: { level?: number }) => Uint8Array;
  uncompress: (input: Uint8Array) => Uint8Array;
}

const NATIVE = Symbol.for("quire.pizzip.nativeDeflate");

export function installNativeDeflate(): void {
  const registry = (PizZip as unknown as { compressions: Record<string, Compression & { [NATIVE]?: true }> }).compressions;
  const deflate = registry.DEFLATE;
  if (deflate[NATIVE]) return;
  deflate.compress = (input, options) => zlib.deflateRawSync(input, { level: options.level || zlib.constants.Z_DEFAULT_COMPRESSION });
  deflate.uncompress = (input) => zlib.inflateRawSync(input);
  deflate[NATIVE] = true;
}

/** A package as a file, every part compressed (a part already compressed is copied as it is). */
export function deflated(zip: PizZip): Buffer {
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}
