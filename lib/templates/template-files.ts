// A template's file is written once, at upload, under a key that names the template
// (templates/<org>/<id>.<kind>), and never rewritten: so its bytes can be kept in memory, and a
// create reads its template from there after the first time instead of from storage. A deleted
// template is refused by its row before its file is asked for.
import { LruCache } from "@/lib/cache/lru";
import type { FileStorage } from "@/lib/storage";

/** Most templates are tens of KB; a few large ones must not push everything else out. */
const MAX_TEMPLATES = 256;
const MAX_BYTES = 64 * 1024 * 1024;

const files = new LruCache<string, Buffer>(MAX_TEMPLATES, { max: MAX_BYTES, of: (file) => file.length });

export async function templateFile(storage: FileStorage, storageKey: string): Promise<Buffer> {
  const key = `${storage.kind}:${storageKey}`;
  const cached = files.get(key);
  if (cached) return cached;
  const file = await storage.get(storageKey);
  files.set(key, file);
  return file;
}
