// The ZIP container of an uploaded DOCX/PPTX, read by hand because the upload is untrusted (APPNOTE.TXT
// sections 4.3.12 to 4.3.16, plus ZIP64 for tools that always emit it): the central directory's declared
// sizes are checked before anything is inflated, and an entry never inflates past its declared size.
import { promisify } from "node:util";
import { inflateRaw } from "node:zlib";
import { corrupt, formatBytes, zipBomb } from "@/lib/templates/template-file-errors";

// Zip-bomb limits, applied to the sizes the central directory declares.
const MAX_ENTRIES = 2_000;
const MAX_TOTAL_UNCOMPRESSED = 200 * 1024 * 1024;
const RATIO_CHECK_MIN_SIZE = 1024 * 1024;
const MAX_RATIO = 200;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** Record signatures (APPNOTE.TXT 4.3.7, 4.3.12, 4.3.16); the package writer (lib/files/zip-patch.ts) reads the same records. */
export const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_ZIP64_EOCD = 0x06064b50;
export const SIG_CENTRAL = 0x02014b50;
export const SIG_LOCAL = 0x04034b50;

export function readCentralDirectory(file: Buffer): ZipEntry[] {
  const incomplete = () => corrupt("The file is damaged or incomplete: its ZIP directory is missing or cut short");

  // The EOCD record is 22 bytes plus a comment of up to 64 KB, so scan backwards from the end.
  let eocd = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 0xffff); i--) {
    if (file.readUInt32LE(i) === SIG_EOCD && i + 22 + file.readUInt16LE(i + 20) <= file.length) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw incomplete();

  let count = file.readUInt16LE(eocd + 10);
  let cdSize = file.readUInt32LE(eocd + 12);
  let cdOffset = file.readUInt32LE(eocd + 16);
  const disk = file.readUInt16LE(eocd + 4);
  if ((disk !== 0 && disk !== 0xffff) || file.readUInt16LE(eocd + 6) !== disk) {
    throw corrupt("The file is damaged: it is a multi-part (spanned) ZIP archive");
  }
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || file.readUInt32LE(locator) !== SIG_ZIP64_LOCATOR) throw incomplete();
    const zip64 = readUInt64(file, locator + 8);
    if (zip64 + 56 > file.length || file.readUInt32LE(zip64) !== SIG_ZIP64_EOCD) throw incomplete();
    count = readUInt64(file, zip64 + 32);
    cdSize = readUInt64(file, zip64 + 40);
    cdOffset = readUInt64(file, zip64 + 48);
  }
  // Checked on the declared count so a forged directory can't make us loop over millions of records.
  if (count > MAX_ENTRIES) throw zipBomb(`The file contains ${count} entries (the limit is ${MAX_ENTRIES})`);
  if (cdOffset + cdSize > file.length) throw incomplete();

  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  let pos = cdOffset;
  for (let n = 0; n < count; n++) {
    if (pos + 46 > cdOffset + cdSize || file.readUInt32LE(pos) !== SIG_CENTRAL) throw incomplete();
    const flags = file.readUInt16LE(pos + 8);
    const method = file.readUInt16LE(pos + 10);
    let compressedSize = file.readUInt32LE(pos + 20);
    let uncompressedSize = file.readUInt32LE(pos + 24);
    const nameLength = file.readUInt16LE(pos + 28);
    const extraLength = file.readUInt16LE(pos + 30);
    const commentLength = file.readUInt16LE(pos + 32);
    let localHeaderOffset = file.readUInt32LE(pos + 42);
    const end = pos + 46 + nameLength + extraLength + commentLength;
    if (end > cdOffset + cdSize) throw incomplete();
    const name = file.toString(flags & 0x800 ? "utf8" : "latin1", pos + 46, pos + 46 + nameLength);

    // ZIP64 extended information: present only for the fields saturated at 0xFFFFFFFF, in this order.
    let extra = pos + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = file.readUInt16LE(extra);
      const size = file.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        let field = extra + 4;
        const next = () => {
          if (field + 8 > extra + 4 + size) throw incomplete();
          const value = readUInt64(file, field);
          field += 8;
          return value;
        };
        if (uncompressedSize === 0xffffffff) uncompressedSize = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = next();
      }
      extra += 4 + size;
    }
    pos = end;

    if (name.endsWith("/")) continue;
    if (flags & 0x1) throw corrupt("The file is encrypted: remove the password and upload it again");
    if (seen.has(name)) throw corrupt(`The file is damaged: it contains "${name}" twice`);
    seen.add(name);
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
  }
  return entries;
}

export function checkDeclaredSizes(entries: ZipEntry[]): void {
  let total = 0;
  for (const entry of entries) {
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
    if (entry.uncompressedSize > RATIO_CHECK_MIN_SIZE && ratio > MAX_RATIO) {
      throw zipBomb(`The file looks like a zip bomb: "${entry.name}" expands ${Math.round(ratio)} times, to ${formatBytes(entry.uncompressedSize)}`);
    }
  }
  if (total > MAX_TOTAL_UNCOMPRESSED) {
    throw zipBomb(`The file looks like a zip bomb: it expands to ${formatBytes(total)} (the limit is ${formatBytes(MAX_TOTAL_UNCOMPRESSED)})`);
  }
}

const inflateRawAsync = promisify(inflateRaw);

/** Inflates one entry, never producing more than its declared size, and decodes it as text. */
export async function inflateEntry(file: Buffer, entry: ZipEntry): Promise<string> {
  const damaged = (why: string) => corrupt(`The file is damaged: "${entry.name}" ${why}`);
  const local = entry.localHeaderOffset;
  if (local + 30 > file.length || file.readUInt32LE(local) !== SIG_LOCAL) throw damaged("cannot be found");
  const start = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
  if (start + entry.compressedSize > file.length) throw damaged("is cut short");
  const data = file.subarray(start, start + entry.compressedSize);

  let content: Buffer;
  if (entry.method === 0) {
    content = data;
  } else if (entry.method === 8) {
    try {
      content = await inflateRawAsync(data, { maxOutputLength: Math.max(entry.uncompressedSize, 1) });
    } catch (err) {
      // A directory that under-declares sizes is a bomb trying to slip past checkDeclaredSizes.
      if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
        throw zipBomb(`The file looks like a zip bomb: "${entry.name}" expands beyond its declared size`);
      }
      throw damaged("cannot be decompressed");
    }
  } else {
    throw damaged(`uses an unsupported compression method (${entry.method})`);
  }
  if (content.length !== entry.uncompressedSize) throw damaged("does not have its declared size");
  // OPC allows UTF-16 parts; Office itself writes UTF-8.
  if (content[0] === 0xff && content[1] === 0xfe) return content.toString("utf16le");
  if (content[0] === 0xfe && content[1] === 0xff) return Buffer.from(content).swap16().toString("utf16le");
  return content.toString("utf8");
}

function readUInt64(file: Buffer, offset: number): number {
  if (offset < 0 || offset + 8 > file.length) return Number.MAX_SAFE_INTEGER;
  return Number(file.readBigUInt64LE(offset));
}
