// Writes ZIP files by hand, so tests can declare sizes that differ from the real ones (zip bombs).
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { createDeflateRaw } from "node:zlib";

export interface RawEntry {
  name: string;
  /** Bytes stored in the archive, already deflated. */
  data: Buffer;
  uncompressedSize: number;
  /** Declared compressed size; defaults to data.length. */
  compressedSize?: number;
  /** General purpose bit flags (0x8: sizes in a data descriptor after the data); default none. */
  flags?: number;
}

/** Writes a ZIP by hand so tests can declare sizes that differ from the real ones. CRCs are left at 0. */
export function writeZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const compressedSize = entry.compressedSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.flags ?? 0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(compressedSize, 18);
    local.writeUInt32LE(entry.uncompressedSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.flags ?? 0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(compressedSize, 20);
    central.writeUInt32LE(entry.uncompressedSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(directory.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, eocd]);
}

/** Deflates `bytes` zero bytes one megabyte at a time, so the test never holds the inflated data. */
export async function deflatedZeros(bytes: number): Promise<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024);
  const chunks = function* () {
    for (let done = 0; done < bytes; done += chunk.length) yield chunk;
  };
  return buffer(Readable.from(chunks()).pipe(createDeflateRaw({ level: 9 })));
}
