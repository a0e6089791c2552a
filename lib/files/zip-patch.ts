// A package written again with other data in some of its parts: a skeleton's with each document's text
// (lib/deliverables/render/skeletons.ts), a DOCX without Word's editing data (lib/pdf/docx-editing-data.ts).
// The file is split once into its entries' records, and each package written is those records with the
// rewritten parts' new data, CRC-32 and sizes, and every record's new offset (APPNOTE.TXT 4.3.7 local
// file header, 4.3.12 central directory header, 4.3.16 end of central directory record). Every other
// entry goes out as the bytes it has, still compressed. PizZip read the whole package and wrote it again
// per document: two thirds of a served fill's CPU, its CRC-32 in JavaScript and its strings and arrays
// copied back and forth (issue 17).
import zlib from "node:zlib";
import { SIG_CENTRAL, SIG_EOCD, SIG_LOCAL } from "@/lib/templates/zip-reader";

const DEFLATE = 8;
/** General purpose flags a split package cannot carry: encryption, sizes in a data descriptor after the data. */
const UNSUPPORTED_FLAGS = 0x1 | 0x8;

interface Record {
  name: string;
  /** A rewritten entry's local header alone; any other entry's header and data, as in the skeleton. */
  local: Buffer;
  central: Buffer;
  rewritten: boolean;
}

/** A package whose named parts take new text per document. */
export interface SplitPackage {
  records: Record[];
  end: Buffer;
  /** Bytes held, for the skeletons' cache. */
  size: number;
}

/**
 * Splits a ZIP as PizZip writes it (no archive comment, no ZIP64, no data descriptors); throws on anything
 * else, or when a part in `rewritten` is not in it, so that a skeleton is never made from what it cannot write.
 */
export function splitPackage(file: Buffer, rewritten: ReadonlySet<string>): SplitPackage {
  const endAt = file.length - 22;
  if (endAt < 0 || file.readUInt32LE(endAt) !== SIG_EOCD) throw new Error("The package does not end with a bare end-of-directory record");
  const count = file.readUInt16LE(endAt + 10);
  let at = file.readUInt32LE(endAt + 16);
  const records: Record[] = [];
  for (let n = 0; n < count; n++) {
    if (file.readUInt32LE(at) !== SIG_CENTRAL) throw new Error(`Entry ${n} of the package has no central header`);
    const flags = file.readUInt16LE(at + 8);
    const compressedSize = file.readUInt32LE(at + 20);
    const nameLength = file.readUInt16LE(at + 28);
    const centralEnd = at + 46 + nameLength + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
    const offset = file.readUInt32LE(at + 42);
    const name = file.toString(flags & 0x800 ? "utf8" : "latin1", at + 46, at + 46 + nameLength);
    if (flags & UNSUPPORTED_FLAGS || compressedSize === 0xffffffff || offset === 0xffffffff || file.readUInt32LE(offset) !== SIG_LOCAL) {
      throw new Error(`Entry ${name} of the package cannot be copied as it is`);
    }
    const dataAt = offset + 30 + file.readUInt16LE(offset + 26) + file.readUInt16LE(offset + 28);
    const isRewritten = rewritten.has(name);
    records.push({
      name,
      local: Buffer.from(file.subarray(offset, isRewritten ? dataAt : dataAt + compressedSize)),
      central: Buffer.from(file.subarray(at, centralEnd)),
      rewritten: isRewritten,
    });
    at = centralEnd;
  }
  const names = new Set(records.map((r) => r.name));
  const missing = [...rewritten].filter((name) => !names.has(name));
  if (missing.length > 0) throw new Error(`The package has no entry ${missing.join(", ")}`);
  const end = Buffer.from(file.subarray(endAt));
  return { records, end, size: records.reduce((sum, r) => sum + r.local.length + r.central.length, end.length) };
}

/** A part's data as a package stores it: deflated, with its CRC-32 and its size before deflating. */
export interface DeflatedPart {
  data: Buffer;
  crc: number;
  size: number;
}

/** A part's text deflated at zlib's default level, as PizZip does. */
export function deflatedPart(value: string): DeflatedPart {
  const text = Buffer.from(value, "utf8");
  return { data: zlib.deflateRawSync(text), crc: zlib.crc32(text), size: text.length };
}

/** The package with each rewritten part's text, or its data deflated once for many packages, from `parts`. */
export function writePackage(pkg: SplitPackage, parts: ReadonlyMap<string, string | DeflatedPart>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const record of pkg.records) {
    const central = Buffer.from(record.central);
    central.writeUInt32LE(offset, 42);
    if (record.rewritten) {
      const value = parts.get(record.name);
      // Every marked part is given its text (fromSkeleton): a part without one is a bug, not an empty part.
      if (value === undefined) throw new Error(`No text for ${record.name}`);
      const { data, crc, size } = typeof value === "string" ? deflatedPart(value) : value;
      const local = Buffer.from(record.local);
      // Method, CRC-32, compressed and uncompressed size: at 8, 14, 18 and 22 in a local header, 2 further on in a central one.
      for (const [header, at] of [
        [local, 8],
        [central, 10],
      ] as const) {
        header.writeUInt16LE(DEFLATE, at);
        header.writeUInt32LE(crc, at + 6);
        header.writeUInt32LE(data.length, at + 10);
        header.writeUInt32LE(size, at + 14);
      }
      locals.push(local, data);
      offset += local.length + data.length;
    } else {
      locals.push(record.local);
      offset += record.local.length;
    }
    centrals.push(central);
  }
  const end = Buffer.from(pkg.end);
  end.writeUInt32LE(
    centrals.reduce((sum, c) => sum + c.length, 0),
    12,
  );
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
