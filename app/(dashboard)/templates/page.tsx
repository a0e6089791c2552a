import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DocumentIcon, FolderIcon } from "@/components/icons";
import { FolderMenu, NewFolderButton } from "@/components/templates/folder-controls";
import { TagFilter } from "@/components/templates/tag-filter";
import { UploadDropzone } from "@/components/templates/upload-dropzone";
import { Pager } from "@/components/pager";
import { Card, DataTable, PageHeader, formatDate } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { getConfig } from "@/lib/config";
import { SENDERS } from "@/lib/auth/roles";
import { pageOf, tagIdsOf } from "@/lib/dashboard/list-params";
import { db } from "@/lib/db/client";
import { sql } from "@/lib/db/sql";
import { NotFoundError } from "@/lib/errors";
import { listTags } from "@/lib/tags/tags";
import { getFolder } from "@/lib/templates/folders";
import { templateTooLarge } from "@/lib/templates/template-file-errors";
import { listTemplateItems, SORT_COLUMNS, type SortColumn, type TemplateItemJson } from "@/lib/templates/listing";
import { isUuid } from "@/lib/ids";

export const metadata: Metadata = { title: "Templates" };

const PAGE_SIZE = 24;
const SORT_LABELS: Record<SortColumn, string> = { name: "Name", createdOn: "Created", updatedOn: "Updated", email: "Creator", templateCount: "Template count" };

type Search = { folder?: string; q?: string; tag?: string | string[]; sort?: string; order?: string; view?: string; page?: string };

function kindLabel(item: TemplateItemJson): string {
  return item.fileType?.includes("presentation") ? "PPTX" : "DOCX";
}

export default async function TemplatesPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { org, role } = await requireDashboard();
  const { maxUploadBytes } = getConfig();
  const params = await searchParams;
  const client = await db();
  const folderId = params.folder && isUuid(params.folder) ? params.folder : undefined;
  const folder = folderId ? await getFolder(client, org.id, folderId).catch((e) => (e instanceof NotFoundError ? notFound() : Promise.reject(e))) : null;
  const selectedTags = tagIdsOf(params.tag);
  const sort = (SORT_COLUMNS as readonly string[]).includes(params.sort ?? "") ? (params.sort as SortColumn) : "name";
  const order = params.order === "desc" ? "desc" : "asc";
  const view = params.view === "list" ? "list" : "grid";
  const page = pageOf(params.page);
  // A search looks through every folder; browsing shows one folder's children.
  const searching = Boolean(params.q) || selectedTags.length > 0;
  const [{ results, totalRecords }, tags] = await Promise.all([
    listTemplateItems(await sql(), org.id, {
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
      query: params.q || undefined,
      selectedTags,
      column0: sort,
      order0: order,
      showTags: true,
      ...(searching ? { type: "template" as const } : { folderId }),
    }),
    listTags(client, org.id),
  ]);
  const canEdit = SENDERS.includes(role);
  const link = (patch: Partial<Search>) => {
    const next = { ...params, ...patch };
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) for (const value of Array.isArray(v) ? v : v ? [v] : []) q.append(k, value);
    return `/templates?${q}`;
  };

  return (
    <>
      <PageHeader title="Templates" description="Word and PowerPoint templates with {Placeholders}.">
        {canEdit ? <NewFolderButton parentId={folderId ?? null} /> : null}
      </PageHeader>
      <nav aria-label="Breadcrumbs" className="mb-4 flex flex-wrap items-center gap-1 text-sm">
        <Link href="/templates" className="text-brand-700 hover:underline">
          All templates
        </Link>
        {folder?.path.map((p) => (
          <span key={p.id} className="flex items-center gap-1">
            <span className="text-slate-400">/</span>
            <Link href={`/templates?folder=${p.id}`} className="text-brand-700 hover:underline">
              {p.name}
            </Link>
          </span>
        ))}
        {folder && canEdit ? (
          <span className="ml-auto">
            <FolderMenu id={folder.id} name={folder.name} parentId={folder.templateFolderId} />
          </span>
        ) : null}
      </nav>
      {canEdit ? (
        <div className="mb-4">
          <UploadDropzone folderId={folderId ?? null} limit={{ bytes: maxUploadBytes, message: templateTooLarge(maxUploadBytes).message }} />
        </div>
      ) : null}
      <search className="mb-4 block">
        <form className="flex flex-wrap items-end gap-3">
          {folderId ? <input type="hidden" name="folder" value={folderId} /> : null}
          <input type="hidden" name="view" value={view} />
          <label className="min-w-0 flex-1 basis-48">
            <span className="text-sm font-medium">Search templates</span>
            <input name="q" defaultValue={params.q} placeholder="Name contains…" className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
          </label>
          <label>
            <span className="text-sm font-medium">Sort</span>
            <select name="sort" defaultValue={sort} className="mt-1 block rounded-md border border-slate-300 bg-white px-2 py-2 text-sm">
              {SORT_COLUMNS.map((c) => (
                <option key={c} value={c}>
                  {SORT_LABELS[c]}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span className="text-sm font-medium">Order</span>
            <select name="order" defaultValue={order} className="mt-1 block rounded-md border border-slate-300 bg-white px-2 py-2 text-sm">
              <option value="asc">Ascending</option>
              <option value="desc">Descending</option>
            </select>
          </label>
          <button type="submit" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50">
            Apply
          </button>
          <span className="flex gap-1 text-sm">
            <Link
              aria-current={view === "grid" ? "true" : undefined}
              href={link({ view: "grid" })}
              className={`rounded px-2 py-1 ${view === "grid" ? "bg-brand-50 text-brand-700" : "text-slate-600"}`}
            >
              Grid
            </Link>
            <Link
              aria-current={view === "list" ? "true" : undefined}
              href={link({ view: "list" })}
              className={`rounded px-2 py-1 ${view === "list" ? "bg-brand-50 text-brand-700" : "text-slate-600"}`}
            >
              List
            </Link>
          </span>
          {tags.length ? <TagFilter tags={tags} selected={selectedTags} /> : null}
        </form>
      </search>
      {results.length === 0 ? (
        <Card>
          <p className="text-center text-sm text-slate-500">{searching ? "No template matches." : "This folder is empty."}</p>
        </Card>
      ) : view === "grid" ? (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {results.map((item) => (
            <li key={item.id}>
              <Link
                href={item.type === "folder" ? `/templates?folder=${item.id}` : `/templates/${item.id}`}
                className="block h-full rounded-lg border border-slate-200 bg-white p-4 hover:border-brand-600"
              >
                <span className="flex items-center gap-2 font-medium">
                  {item.type === "folder" ? (
                    <FolderIcon className="h-5 w-5 shrink-0 text-amber-500" />
                  ) : (
                    <DocumentIcon className="h-5 w-5 shrink-0 text-brand-600" />
                  )}
                  <span className="min-w-0 truncate">{item.name}</span>
                </span>
                <span className="mt-1 block text-xs text-slate-500">
                  {item.type === "folder"
                    ? `${item.templateCount} template${item.templateCount === 1 ? "" : "s"}`
                    : `${kindLabel(item)} · ${Math.max(1, Math.round((item.fileSize ?? 0) / 1024))} KB · ${formatDate(new Date(item.updatedOn!))}`}
                </span>
                {item.tags?.length ? <span className="mt-2 block truncate text-xs text-brand-700">{item.tags.join(", ")}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <DataTable minWidth="32rem" columns={["Name", "Kind", "Tags", "Updated"]}>
          {results.map((item) => (
            <tr key={item.id} className="border-b border-slate-100 last:border-0">
              <td className="px-4 py-2">
                <Link
                  href={item.type === "folder" ? `/templates?folder=${item.id}` : `/templates/${item.id}`}
                  className="font-medium text-brand-700 hover:underline"
                >
                  {item.name}
                </Link>
              </td>
              <td className="px-4 py-2 text-slate-600">{item.type === "folder" ? `Folder (${item.templateCount})` : kindLabel(item)}</td>
              <td className="px-4 py-2 text-slate-600">{item.tags?.join(", ")}</td>
              <td className="px-4 py-2 text-slate-600">{item.updatedOn ? formatDate(new Date(item.updatedOn)) : ""}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={totalRecords} href={(p) => link({ page: String(p) })} />
    </>
  );
}
