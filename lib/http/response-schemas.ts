// Building blocks of the response schemas (ids, timestamps, the data envelope), shared by every area's
// responses.ts. They describe what the server sends; lib/openapi renders them into the document.
import { z } from "zod";

/** ISO 8601 in UTC with milliseconds, e.g. 2024-01-15T14:12:10.721Z. */
export const timestamp = z.iso
  .datetime({ precision: 3 })
  .meta({ id: "Timestamp", description: "ISO 8601 timestamp in UTC with milliseconds", example: "2024-01-15T14:12:10.721Z" });

/** Ids are UUIDs (any version: the seed and tests use fixed ones too). */
export const uuid = z.guid();

/** `{ results, totalRecords }`: one page of a list and the number of matching records. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ results: z.array(item), totalRecords: z.number().int().min(0).meta({ description: "Total matching records, for paging" }) });
}

/** `{ data }`: the envelope of every JSON reply of the contract. */
export function dataOf<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

/** `{ data: { results } }` */
export function resultsOf<T extends z.ZodType>(results: T) {
  return dataOf(z.object({ results }));
}
