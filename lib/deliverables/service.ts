// Wires the deliverable domain to the configured adapters (storage, converter, image fetching, AI).
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { sql } from "@/lib/db/sql";
import { openAiCompatible } from "@/lib/deliverables/ai";
import type { DeliverableDeps } from "@/lib/deliverables/deliverables";
import { safeDownload } from "@/lib/net/safe-fetch";
import { pdfConverter } from "@/lib/pdf/converter";
import { fileStorage } from "@/lib/storage";

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export async function deliverableDeps(): Promise<DeliverableDeps> {
  const config = getConfig();
  return {
    db: await db(),
    sql: await sql(),
    storage: fileStorage(),
    converter: pdfConverter(),
    fetchImage: (url) => safeDownload(url, { field: "image URL", maxBytes: MAX_IMAGE_BYTES, allowPrivate: config.allowPrivateFetch }),
    answerPrompt: config.ai ? openAiCompatible(config.ai) : null,
  };
}
