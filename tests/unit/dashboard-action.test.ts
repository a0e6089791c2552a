// The one guard of dashboard server actions (lib/dashboard/action.ts): roles, input parsed by zod,
// domain refusals as a result, bugs thrown. The session is stubbed: next-auth needs a request.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { DashboardContext } from "@/lib/auth/dashboard";
import { NotFoundError, ValidationError } from "@/lib/errors";

let ctx: DashboardContext;
vi.mock("@/lib/auth/dashboard", () => ({ requireDashboard: async () => ctx }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const { dashboardAction, dashboardFormAction } = await import("@/lib/dashboard/action");

beforeEach(() => {
  ctx = { user: { id: "u1", email: "a@example.com", name: "A" }, org: { id: "o1", name: "Org" }, role: "contributor" };
});

const echo = dashboardAction({
  roles: ["administrator", "contributor"],
  denied: "Only administrators and contributors can do this",
  input: z.object({ name: z.string().min(3, "at least 3 characters") }),
  run: async (input, c) => ({ name: input.name, org: c.org.id }),
});

describe("dashboardAction", () => {
  it("runs with the parsed input and the session's context", async () => {
    expect(await echo({ name: "Alpha" })).toEqual({ ok: true, data: { name: "Alpha", org: "o1" } });
  });

  it("refuses a role outside the list without running", async () => {
    ctx.role = "viewer";
    expect(await echo({ name: "Alpha" })).toEqual({ ok: false, error: "Only administrators and contributors can do this" });
  });

  it("answers invalid input with field errors", async () => {
    expect(await echo({ name: "A" })).toEqual({ ok: false, error: "Fix the highlighted fields", fieldErrors: { name: "at least 3 characters" } });
    expect(await echo(42 as never)).toMatchObject({ ok: false, fieldErrors: { form: expect.any(String) } });
    expect(await echo({ name: "Al\u0000pha" })).toMatchObject({ ok: false, fieldErrors: { name: expect.any(String) } });
  });

  it("turns domain refusals into a result and throws anything else", async () => {
    const refuse = (err: Error) => dashboardAction({ roles: ["contributor"], denied: "no", input: z.object({}), run: async () => Promise.reject(err) });
    expect(await refuse(new NotFoundError("Template not found", "TemplateNotFound"))({})).toEqual({ ok: false, error: "Template not found" });
    expect(await refuse(new ValidationError("Invalid", [{ field: "name", message: "too long" }]))({})).toEqual({
      ok: false,
      error: "Invalid",
      fieldErrors: { name: "too long" },
    });
    await expect(refuse(new Error("bug"))({})).rejects.toThrow("bug");
  });

  it("drops a field path the domain message starts with, since the form shows the field itself", async () => {
    const refuse = dashboardAction({
      roles: ["contributor"],
      denied: "no",
      input: z.object({}),
      run: async () =>
        Promise.reject(
          new ValidationError("bad", [
            { field: "urls.0", message: "urls.0: hooks.example.com does not resolve" },
            { field: "urls.1", message: "urls.1 must be an https:// URL" },
            { field: "name", message: "names the urls.0 problem" },
          ]),
        ),
    });
    expect((await refuse({})) as { fieldErrors: unknown }).toMatchObject({
      fieldErrors: { "urls.0": "hooks.example.com does not resolve", "urls.1": "must be an https:// URL", name: "names the urls.0 problem" },
    });
  });

  it("reads a form action's input from its form data", async () => {
    const create = dashboardFormAction({
      roles: ["contributor"],
      denied: "no",
      input: z.object({ name: z.string() }),
      fromForm: (f) => ({ name: f.get("name") }),
      run: async ({ name }) => name,
    });
    const form = new FormData();
    form.set("name", "Beta");
    expect(await create(null, form)).toEqual({ ok: true, data: "Beta" });
  });
});

describe("updateTemplateAction", () => {
  it("answers a non-string tags with a validation result instead of throwing", async () => {
    const { updateTemplateAction } = await import("@/lib/dashboard/actions/templates");
    const result = await updateTemplateAction({ id: "t1", name: "Offer", description: "", folderId: "", tags: ["a"] as never });
    expect(result).toMatchObject({ ok: false, error: "Fix the highlighted fields", fieldErrors: { tags: expect.any(String) } });
  });
});
