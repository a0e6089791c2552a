// Small presentational pieces shared by dashboard pages.
export function PageHeader({ title, description, children }: { title: string; description?: React.ReactNode; children?: React.ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      {/* min-w-0: a long title wraps inside its column instead of squeezing the actions beside it. */}
      <div className="min-w-0">
        <h1 className="break-words text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      </div>
      {children}
    </div>
  );
}

export function Card({ children, className = "" }: { children: React.ReactNode; className?: string }) {
  // min-w-0: as a grid or flex item a card may shrink below its content's width (long code, hashes), so
  // that content wraps or scrolls inside it instead of widening the page.
  return <section className={`min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 ${className}`}>{children}</section>;
}

export function Badge({ children, tone = "slate" }: { children: React.ReactNode; tone?: "slate" | "green" | "red" | "blue" }) {
  const tones = {
    slate: "bg-slate-100 text-slate-700",
    green: "bg-emerald-50 text-emerald-700",
    red: "bg-red-50 text-red-700",
    blue: "bg-brand-50 text-brand-700",
  };
  return <span className={`inline-flex rounded px-2 py-0.5 text-xs font-medium ${tones[tone]}`}>{children}</span>;
}

export function formatDate(value: Date | null | undefined): string {
  if (!value) return "never";
  return `${value.toISOString().replace("T", " ").slice(0, 16)} UTC`;
}

/**
 * A card holding a table. From `sm` up it is a table that scrolls sideways when narrower than
 * `minWidth`; on phones each row stacks as a small card whose cells are labelled with their column
 * (the `.data-table` rules in app/globals.css), so actions such as Revoke stay on screen.
 * `columns` are the header labels; an empty label leaves that column's cells unlabelled. `empty`, when
 * given, is what the table says in place of rows (pass it only when there are none).
 */
export function DataTable({
  columns,
  minWidth = "34rem",
  empty,
  children,
}: {
  columns: string[];
  minWidth?: string;
  empty?: React.ReactNode;
  children: React.ReactNode;
}) {
  const scope = `data-table-${shortHash(columns.join("\u0000"))}`;
  const labels = columns.map((c, i) => (c ? `.${scope} td:not([colspan]):nth-child(${i + 1})::before{content:${JSON.stringify(c)}}` : "")).join("");
  return (
    <Card className={`data-table ${scope} p-0 sm:overflow-x-auto sm:p-0`}>
      <style>{`@media (width < 40rem){${labels}}`}</style>
      <table className="w-full text-left text-sm sm:min-w-(--table-min)" style={{ "--table-min": minWidth } as React.CSSProperties}>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            {columns.map((c, i) => (
              <th key={`${c}-${i}`} className="px-4 py-2 font-medium">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-8 text-center text-slate-500">
                {empty}
              </td>
            </tr>
          ) : null}
          {children}
        </tbody>
      </table>
    </Card>
  );
}

/** A short stable name for a list of labels (FNV-1a), so each table's label rules apply to it alone. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** A page this role may not use: its title and why, in place of what it holds. */
export function RoleRefusal({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <p role="alert" className="text-sm text-slate-700">
          {children}
        </p>
      </Card>
    </>
  );
}

/** A list page's search: a text box, the page's own filters (`children`) and the button that applies them. */
export function SearchForm({
  label,
  defaultValue,
  placeholder,
  type,
  submitLabel = "Apply",
  children,
  after,
}: {
  label: string;
  defaultValue?: string;
  placeholder?: string;
  type?: "search";
  submitLabel?: string;
  children?: React.ReactNode;
  /** Filters after the button (a wide one, such as the tag checkboxes, that wraps below). */
  after?: React.ReactNode;
}) {
  return (
    <search className="mb-4 block">
      <form className="flex flex-wrap items-end gap-3">
        <label className="min-w-[12rem] flex-1 basis-48">
          <span className="text-sm font-medium">{label}</span>
          <input
            name="q"
            type={type}
            defaultValue={defaultValue}
            placeholder={placeholder}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
          />
        </label>
        {children}
        <button type="submit" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50">
          {submitLabel}
        </button>
        {after}
      </form>
    </search>
  );
}

/** A labelled `<select>` for GET filter forms: the empty option means "no filter". */
export function FilterSelect({
  label,
  name,
  options,
  value,
  anyLabel = "Any",
  className = "",
}: {
  label: string;
  name: string;
  options: readonly string[];
  value?: string;
  anyLabel?: string;
  className?: string;
}) {
  return (
    <label className="text-sm">
      <span className="block font-medium text-slate-700">{label}</span>
      <select name={name} defaultValue={value ?? ""} className={`mt-1 block max-w-[14rem] rounded-md border border-slate-300 bg-white px-2 py-2 ${className}`}>
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A labelled single-line input, as used across dashboard forms. */
export function LabeledInput({ label, ...input }: { label: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="block">
      <span className="text-sm font-medium">{label}</span>
      <input {...input} className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
    </label>
  );
}

/** The outcome line under a form: an alert for errors, a status for success. */
export function FormMessage({ message }: { message: { tone: "ok" | "error"; text: string } | null }) {
  if (!message) return null;
  return (
    <p role={message.tone === "error" ? "alert" : "status"} className={`text-sm ${message.tone === "error" ? "text-red-700" : "text-emerald-700"}`}>
      {message.text}
    </p>
  );
}

/** Shown beside a busy button's words; hidden from screen readers, which hear the words. */
export function Spinner({ light = false }: { light?: boolean }) {
  return (
    <span
      aria-hidden
      className={`h-4 w-4 animate-spin rounded-full border-2 ${light ? "border-white border-t-transparent" : "border-slate-300 border-t-brand-600"}`}
    />
  );
}
