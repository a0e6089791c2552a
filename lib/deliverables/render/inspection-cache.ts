// Rendering checks the template the way its upload did (inspectTemplate: every XML part inflated
// and checked, every tag compiled), which was a third of a render's CPU although a template's bytes
// rarely change between documents. Results are kept by a hash of the bytes, so a replaced template
// is never answered from the cache, whatever its id or dates say; a failed inspection is not kept.
import crypto from "node:crypto";
import { LruCache } from "@/lib/cache/lru";
import { inspectTemplate, type TemplateInspection, type TemplateKind } from "@/lib/templates/inspect";

/** Inspections are a few KB of placeholder descriptions each. */
const MAX_TEMPLATES = 256;

const inspections = new LruCache<string, Promise<TemplateInspection>>(MAX_TEMPLATES);

/** What identifies a template's bytes in the render caches. */
export function templateDigest(template: Buffer): string {
  return crypto.createHash("sha256").update(template).digest("base64");
}

/** What the render caches (inspection, stack expansion, facts) key a template by: its kind and bytes. */
export function templateKey(kind: TemplateKind, digest: string): string {
  return `${kind}:${digest}`;
}

/** inspectTemplate for rendering, once per distinct template content (concurrent renders share one). */
export function inspectForRender(template: Buffer, kind: TemplateKind, digest = templateDigest(template)): Promise<TemplateInspection> {
  const key = templateKey(kind, digest);
  const cached = inspections.get(key);
  if (cached) return cached;
  const inspection = inspectTemplate(template, `template.${kind}`, { maxBytes: Math.max(template.length, 1) });
  inspections.set(key, inspection);
  inspection.catch(() => {
    if (inspections.get(key) === inspection) inspections.delete(key);
  });
  return inspection;
}

/** For tests: forget every inspection. */
export function clearInspectionCache(): void {
  inspections.clear();
}
