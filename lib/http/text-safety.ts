// Text PostgreSQL and the database drivers cannot store: a NUL character (PostgreSQL refuses it in
// text) and a lone UTF-16 surrogate (not encodable as UTF-8; the driver fails). Such input is refused
// as a 400 naming where it is, before it reaches a query; nothing else is rejected here.
import { ValidationError, type ValidationIssue } from "@/lib/errors";

/** Why a string cannot be stored, or null when it can. */
export function unstorableText(text: string): string | null {
  if (text.includes("\u0000")) return "contains a NUL character (\\u0000), which text cannot hold";
  if (!text.isWellFormed()) return "contains an unpaired UTF-16 surrogate (e.g. \\ud800 alone), which is not valid Unicode text";
  return null;
}

const MAX_DEPTH = 64;

/** Every unstorable string (keys included) in a parsed JSON value, by path ("variables.0.text"). */
export function unstorableJson(value: unknown, path = "", depth = 0): ValidationIssue[] {
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
  if (typeof value === "string") {
    const why = unstorableText(value);
    return why ? [{ field: path || "(body)", message: why }] : [];
  }
  if (value === null || typeof value !== "object") return [];
  if (depth > MAX_DEPTH) return [{ field: path || "(body)", message: `is nested deeper than ${MAX_DEPTH} levels` }];
  const issues: ValidationIssue[] = [];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) issues.push(...unstorableJson(v, at(i), depth + 1));
  } else
    for (const [k, v] of Object.entries(value)) {
      const why = unstorableText(k);
      if (why) issues.push({ field: at(k.replace(/[\u0000\ud800-\udfff]/g, "\ufffd")), message: `key ${why}` });
      issues.push(...unstorableJson(v, at(k), depth + 1));
    }
  return issues;
}

export function refuseUnstorable(issues: ValidationIssue[]): void {
  if (issues.length === 0) return;
  const first = issues[0];
  throw new ValidationError(
    `${first.field} ${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""}`,
    issues.slice(0, 50),
    "InvalidText",
  );
}

/** The query string's and path's problems: undecodable percent-encoding, NUL, lone surrogates. */
export function urlProblems(url: URL): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const segment of url.pathname.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      issues.push({ field: "path", message: `"${segment.slice(0, 40)}" is not valid percent-encoding (each % must start a UTF-8 sequence such as %20)` });
      continue;
    }
    const why = unstorableText(decoded);
    if (why) issues.push({ field: "path", message: why });
  }
  const query = url.search.slice(1);
  if (query) {
    for (const pair of query.split("&")) {
      const [rawKey, rawValue = ""] = pair.split("=");
      for (const [part, raw] of [
        ["name", rawKey],
        ["value", rawValue],
      ] as const) {
        let decoded: string;
        try {
          decoded = decodeURIComponent(raw.replace(/\+/g, " "));
        } catch {
          issues.push({ field: rawKey.slice(0, 40), message: `the query parameter's ${part} is not valid percent-encoding` });
          continue;
        }
        const why = unstorableText(decoded);
        if (why) issues.push({ field: safeName(rawKey), message: why });
      }
    }
  }
  return issues;
}

function safeName(rawKey: string): string {
  try {
    return decodeURIComponent(rawKey)
      .replace(/[\u0000\ud800-\udfff]/g, "\ufffd")
      .slice(0, 40);
  } catch {
    return rawKey.slice(0, 40);
  }
}
