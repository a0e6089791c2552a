// GET /esign/documents (and the dashboard's list) in one plain statement, the page with its recipients
// and its total (issue 17): through Prisma the include cost several times the SQL. Same JSON as the
// single read: documentJson.
import { pageTotal, selectTotal } from "@/lib/db/paging";
import { likePattern, type SqlRunner } from "@/lib/db/sql";
import { type DocumentView, documentJson } from "@/lib/esign/documents";
import type { DocumentStatus } from "@/lib/generated/prisma/client";

export interface DocumentListQuery {
  limit: number;
  offset: number;
  status?: DocumentStatus;
  query?: string;
}

type RecipientCell = Omit<DocumentView["recipients"][number], "signedAt" | "viewedAt"> & { signedAt: string | null; viewedAt: string | null };
type ListRow = Omit<DocumentView, "recipients"> & { recipients: RecipientCell[] | null; total: number };

const RECIPIENTS_OF_ROW = `(SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'email', r.email, 'externalId', r."externalId", 'signingOrder', r."signingOrder", 'signedAt', r."signedAt", 'viewedAt', r."viewedAt") ORDER BY r."signingOrder", r."createdOn")
  FROM signing_recipient r WHERE r."documentId" = p.id) AS recipients`;

const at = (value: string | null) => (value === null ? null : new Date(value));

export async function listDocuments(sql: SqlRunner, orgId: string, q: DocumentListQuery) {
  const params: unknown[] = [orgId];
  const clauses = [`d."orgId" = $1::uuid`];
  if (q.status) {
    params.push(q.status);
    clauses.push(`d.status = $${params.length}::"DocumentStatus"`);
  }
  if (q.query) {
    params.push(likePattern(q.query));
    clauses.push(`d.name ILIKE $${params.length}`);
  }
  const where = clauses.join(" AND ");
  const n = params.length;
  const total = `(SELECT count(*)::int FROM signing_document d WHERE ${where})`;
  const rows = await sql.query<ListRow>(
    // The page's ids first (off the (orgId, createdOn, id) index, without reading the rows it skips),
    // then its rows by key and their recipients only.
    `WITH keys AS (
       SELECT d.id FROM signing_document d WHERE ${where}
       ORDER BY d."createdOn" DESC, d.id DESC LIMIT $${n + 1} OFFSET $${n + 2}),
     p AS (
       SELECT d.id, d.name, d.description, d.status, d."pageCount", d."originalHash", d."senderName", d."senderEmail", d."ccEmails", d."sendEmail",
              d.language, d."expiresAt", d."emailSubject", d."emailMessage", d."reminderDays", d."createdOn", d."updatedOn", d."sentAt", d."completedAt", d."voidedAt", d."voidReason",
              d."declinedAt", d."declineReason"
       FROM signing_document d WHERE d.id = ANY(ARRAY(SELECT id FROM keys)))
     SELECT p.*, ${total} AS total, ${RECIPIENTS_OF_ROW} FROM p ORDER BY p."createdOn" DESC, p.id DESC`,
    [...params, q.limit, q.offset],
  );
  const totalRecords = await pageTotal(rows, q.offset, () => selectTotal(sql, total, params));
  return {
    results: rows.map((row) =>
      documentJson({ ...row, recipients: (row.recipients ?? []).map((r) => ({ ...r, signedAt: at(r.signedAt), viewedAt: at(r.viewedAt) })) }),
    ),
    totalRecords,
  };
}
