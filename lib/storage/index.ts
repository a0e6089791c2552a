// Picks the storage adapter from configuration (STORAGE_DRIVER).
import { getConfig } from "@/lib/config";
import { LocalFileStorage } from "@/lib/storage/local";
import { S3FileStorage } from "@/lib/storage/s3";
import type { FileStorage } from "@/lib/storage/types";

export type { FileStorage } from "@/lib/storage/types";

let storage: FileStorage | undefined;

export function fileStorage(): FileStorage {
  if (!storage) {
    const { storage: config } = getConfig();
    storage = config.driver === "s3" ? new S3FileStorage(config) : new LocalFileStorage(config.root);
  }
  return storage;
}
