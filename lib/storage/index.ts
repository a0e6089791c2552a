// Picks the storage adapter from configuration (STORAGE_DRIVER).
import { getConfig } from "@/lib/config";
import { LocalFileStorage } from "@/lib/storage/local";
import type { FileStorage } from "@/lib/storage/types";

export type { FileStorage } from "@/lib/storage/types";

let storage: FileStorage | undefined;

export function fileStorage(): FileStorage {
  if (!storage) {
    const config = getConfig();
    storage = new LocalFileStorage(config.storage.root);
  }
  return storage;
}
