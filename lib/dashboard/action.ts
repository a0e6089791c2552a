// One guard for every dashboard server action (lib/dashboard/actions/): the login session, the roles
// that may act, the input parsed by a zod schema, and one result type. A domain refusal (QuireError)
// becomes a failed result carrying the domain's message; anything else is a bug and is thrown, as is
// the login redirect of requireDashboard.
import { z } from "zod";
import { requireDashboard, type DashboardContext } from "@/lib/auth/dashboard";
import type { Role } from "@/lib/auth/roles";
import { QuireError, ValidationError } from "@/lib/errors";
import { refuseUnstorable, unstorableJson } from "@/lib/http/text-safety";

/** Field errors keyed by the field's path ("urls.1", "name"); "form" for the input as a whole. */
export type FieldErrors = Record<string, string>;

export type ActionFailure = { ok: false; error: string; fieldErrors?: FieldErrors };
export type ActionResult<T = null> = { ok: true; data: T } | ActionFailure;

export interface ActionSpec<S extends z.ZodType, T> {
  /** Who may act. */
  roles: readonly Role[];
  /** The message for a signed-in user whose role is not among `roles`. */
  denied: string;
  /** The input, parsed before `run`; a failure is a result with fieldErrors, never a throw. */
  input: S;
  /** The message of a result with fieldErrors (input or domain validation); by default "Fix the highlighted fields" for input and the domain's own message. */
  invalid?: string;
  run(input: z.output<S>, ctx: DashboardContext): Promise<T>;
}

/** A form's comma-separated list (tags) as its trimmed, non-empty entries. */
export const commaSeparated = z.string().transform((text) =>
  text
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean),
);

const INVALID_INPUT = "Fix the highlighted fields";

function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join(".") || "form";
    // Some domain messages start with their field ("urls.0: … does not resolve"): the form shows the field itself.
    const message =
      issue.message.startsWith(`${path}: `) || issue.message.startsWith(`${path} `) ? issue.message.slice(path.length).replace(/^:? /, "") : issue.message;
    out[path] ??= message;
  }
  return out;
}

async function runAction<S extends z.ZodType, T>(spec: ActionSpec<S, T>, raw: unknown): Promise<ActionResult<T>> {
  try {
    const ctx = await requireDashboard();
    if (!spec.roles.includes(ctx.role)) return { ok: false, error: spec.denied };
    // The same edge check as the REST API's: text PostgreSQL cannot store (NUL, lone surrogates) is a validation error, not a crash.
    refuseUnstorable(unstorableJson(raw));
    const parsed = spec.input.safeParse(raw);
    if (!parsed.success) return { ok: false, error: spec.invalid ?? INVALID_INPUT, fieldErrors: fieldErrorsOf(parsed.error.issues) };
    return { ok: true, data: await spec.run(parsed.data, ctx) };
  } catch (err) {
    if (err instanceof ValidationError && err.issues.length) {
      return { ok: false, error: spec.invalid ?? err.message, fieldErrors: fieldErrorsOf(err.issues.map((i) => ({ path: [i.field], message: i.message }))) };
    }
    if (err instanceof QuireError) return { ok: false, error: err.message };
    throw err;
  }
}

/** A server action called with its input: `await saveThing({ id, name })`. */
export function dashboardAction<S extends z.ZodType, T = null>(spec: ActionSpec<S, T>): (input: z.input<S>) => Promise<ActionResult<T>> {
  return async (input) => runAction(spec, input);
}

/** A server action for useActionState and a <form action>: the input is read from the form data (null state: nothing sent yet). */
export function dashboardFormAction<S extends z.ZodType, T = null>(
  spec: ActionSpec<S, T> & { fromForm(form: FormData): unknown },
): (prev: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>> {
  return async (_prev, form) => runAction(spec, spec.fromForm(form));
}
