"use client";

/**
 * The templates and deliverables searches' tag filter: one checkbox chip per tag (all chosen tags must match), applied at
 * once by submitting the surrounding GET form. Each chip is a real checkbox: Tab to it, Space toggles it.
 */
export function TagFilter({ tags, selected }: { tags: { id: string; label: string }[]; selected: string[] }) {
  return (
    <fieldset className="min-w-0 basis-full">
      <legend className="text-sm font-medium">Tags (all of)</legend>
      <div className="mt-1 flex flex-wrap gap-2">
        {tags.map((t) => (
          <label
            key={t.id}
            className="inline-flex cursor-pointer items-center gap-1.5 rounded-full border border-slate-300 bg-white px-3 py-1 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:checked]:text-brand-700 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600"
          >
            <input
              type="checkbox"
              name="tag"
              value={t.id}
              defaultChecked={selected.includes(t.id)}
              onChange={(e) => e.currentTarget.form?.requestSubmit()}
              className="h-3.5 w-3.5 accent-brand-600"
            />
            {t.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
