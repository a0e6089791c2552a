// The outbox: every email Quire sent or would have sent, per organization. Read by the REST API
// (GET /api/outbox) and the dashboard's Outbox page, a mail catcher for testers and an audit trail.
import { Parser } from "htmlparser2";
import type { Db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import type { OutboxMessage } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";

function messageJson(m: OutboxMessage) {
  return {
    id: m.id,
    kind: m.kind,
    to: m.to,
    cc: Array.isArray(m.cc) ? m.cc.map(String) : [],
    from: m.fromAddress,
    replyTo: m.replyTo,
    subject: m.subject,
    text: m.text,
    html: m.html,
    documentId: m.documentId,
    transport: m.transport,
    sentAt: m.sentAt?.toISOString() ?? null,
    error: m.error,
    createdOn: m.createdOn.toISOString(),
  };
}

export type OutboxMessageJson = ReturnType<typeof messageJson>;

/**
 * Newest first. `to` matches a recipient exactly (the API's filter); `search` matches any part of
 * it (the dashboard's search box). Both ignore case.
 */
export async function listOutbox(db: Db, q: { orgId: string; to?: string; search?: string; limit: number; offset: number }) {
  const to = q.to ? { equals: q.to, mode: "insensitive" as const } : q.search ? { contains: q.search, mode: "insensitive" as const } : undefined;
  const where = { orgId: q.orgId, ...(to ? { to } : {}) };
  const [rows, totalRecords] = await Promise.all([
    db.outboxMessage.findMany({ where, orderBy: [{ createdOn: "desc" }, { id: "desc" }], take: q.limit, skip: q.offset }),
    db.outboxMessage.count({ where }),
  ]);
  return { results: rows.map(messageJson), totalRecords };
}

/** One message of the organization; another organization's message is "not found", never "forbidden". */
export async function getOutboxMessage(db: Db, q: { orgId: string; id: string }): Promise<OutboxMessageJson> {
  const row = isUuid(q.id) ? await db.outboxMessage.findFirst({ where: { id: q.id, orgId: q.orgId } }) : null;
  if (!row) throw new NotFoundError("Message not found", "OutboxMessageNotFound");
  return messageJson(row);
}

export interface EmailLink {
  url: string;
  /** The link's text in the HTML version, when it has one. */
  label: string | null;
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"')\]]+/g;

/**
 * The http(s) links of an email, in order of appearance, each once: anchors of the HTML version
 * (with their text) and then bare URLs of the plain-text version that the HTML does not have.
 */
export function emailLinks(html: string, text: string): EmailLink[] {
  const links = new Map<string, EmailLink>();
  let open: { url: string; label: string } | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name !== "a" || !attrs.href) return;
        const url = attrs.href.trim();
        if (/^https?:\/\//i.test(url)) open = { url, label: "" };
      },
      ontext(chunk) {
        if (open) open.label += chunk;
      },
      onclosetag(name) {
        if (name !== "a" || !open) return;
        const label = open.label.replace(/\s+/g, " ").trim();
        const seen = links.get(open.url);
        // A button and a "copy this link" line often share one URL: keep the more telling label.
        if (!seen) links.set(open.url, { url: open.url, label: label || null });
        else if (!seen.label || seen.label === seen.url) seen.label = label || seen.label;
        open = null;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = match[0].replace(/[.,;:!?]+$/, "");
    if (!links.has(url)) links.set(url, { url, label: null });
  }
  return [...links.values()];
}

/**
 * The HTML for a sandboxed preview iframe: a <base target="_blank"> makes every link open in a new
 * tab (a sandboxed frame may not navigate itself or its parent).
 */
export function previewHtml(html: string): string {
  const base = '<base target="_blank">';
  // In <head> when there is one; else right after <html> or the doctype, where the parser still
  // files it into the implied head (before the doctype it would force quirks mode).
  for (const tag of [/<head(\s[^>]*)?>/i, /<html(\s[^>]*)?>/i, /<!doctype[^>]*>/i]) {
    const m = tag.exec(html);
    if (m) return html.slice(0, m.index + m[0].length) + base + html.slice(m.index + m[0].length);
  }
  return base + html;
}
