// JSON data for advanced placeholders (docs/contract.md "Advanced templating"): which top-level names a
// template reads, and whether a value has the shape the template reads from it. A value may leave
// things out (they render empty); it may not hold a string where the template reads a property or
// loops over items with fields.
import type { TemplatePlaceholder } from "@/lib/templates/inspect";
import { classifyTag } from "@/lib/templates/tags";

/** Top-level data names read by paths, expressions, loops and conditions outside any loop. */
export function advancedDataNames(placeholders: TemplatePlaceholder[]): string[] {
  return [...new Set(placeholders.flatMap((p) => (p.loop ? [] : (p.data ?? []))))];
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  return typeof value === "string" ? `the text "${value.length > 20 ? `${value.slice(0, 20)}…` : value}"` : `the ${typeof value} ${String(value)}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Problems with `value` as the data for `name`, each naming the path (empty when it fits). */
export function checkDataShape(name: string, value: unknown, placeholders: TemplatePlaceholder[]): string[] {
  const problems = new Set<string>();
  for (const p of placeholders) {
    if (p.loop || !p.data?.includes(name)) continue;
    if (p.kind === "loop" && p.name === name && p.fields?.length) {
      checkItems(name, value, p, problems);
      continue;
    }
    if (p.kind !== "path" && p.kind !== "expression") continue;
    for (const path of classifyTag(p.placeholder.slice(1, -1)).paths) {
      const [root, ...rest] = path.split(".");
      if (root === name) walk(value, name, rest, p.placeholder, problems);
    }
  }
  return [...problems];
}

function walk(value: unknown, at: string, rest: string[], placeholder: string, problems: Set<string>): void {
  let current = value;
  let path = at;
  for (const key of rest) {
    if (current === undefined || current === null) return;
    if ((Array.isArray(current) || typeof current === "string") && key === "length") {
      current = current.length;
    } else if (Array.isArray(current) && /^\d+$/.test(key)) {
      current = current[Number(key)];
    } else if (isRecord(current)) {
      current = Object.hasOwn(current, key) ? current[key] : undefined;
    } else {
      problems.add(`${path} is ${describe(current)}, but ${placeholder} reads ${path}.${key} from it (an object is needed)`);
      return;
    }
    path = `${path}.${key}`;
  }
}

function checkItems(name: string, value: unknown, loop: TemplatePlaceholder, problems: Set<string>): void {
  const fields = loop.fields!.join(", ");
  if (typeof value === "boolean" || value === null || value === undefined) return;
  const items = Array.isArray(value) ? value : [value];
  if (!Array.isArray(value) && !isRecord(value)) {
    problems.add(`${name} is ${describe(value)}, but ${loop.placeholder} repeats its content for each item of a list of objects (with ${fields})`);
    return;
  }
  // {#tags}{.}{/tags} loops over plain values.
  if (loop.fields!.every((f) => f === "." || f === "this")) return;
  items.forEach((item, i) => {
    if (!isRecord(item)) problems.add(`${name}.${i} is ${describe(item)}, but each item of ${loop.placeholder} must be an object (with ${fields})`);
  });
}
