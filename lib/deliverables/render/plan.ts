// Validates the variables against the limits and the template's placeholders, all up front, and
// resolves each into what one placeholder renders. Every problem is collected so a caller sees
// them all in one error. Types and shapes (strings, mimeType, stack keys, one level of
// subvariables) are the request schema's rules (lib/deliverables/schemas.ts): this plan owns what
// depends on the values and the template (placeholder syntax, text/value agreement, lengths and
// counts, unknown or repeated placeholders, subvariable tokens).
import { UnprocessableError, ValidationError, type ValidationIssue } from "@/lib/errors";
import type { TemplatePlaceholder } from "@/lib/templates/inspect";
import { advancedDataNames, checkDataShape } from "./data";
import { nestingDepth, type Substitution, valueToHtml } from "./content";
import type { MimeType, ResolvedValue, Subvariable, VariableInput, VariableStackEntry } from "./types";

export const LIMITS = {
  variables: 1_000,
  textChars: 1_000_000,
  /** Images arrive as base64: 15 MB of it. */
  imageTextChars: 15 * 1024 * 1024,
  aiPromptChars: 16_000,
  stackEntries: 1_000,
  subvariables: 1_000,
  /** Levels of blockquotes, lists or HTML elements in an html or markdown value. */
  nesting: 100,
} as const;

export interface RenderPlan {
  /** What each tag renders, keyed by the tag's content (placeholder without braces), stack copies included. */
  values: Map<string, ResolvedValue>;
  /** Stacked tags: tag content -> the contents of its copies, one per entry, in index order. */
  stacks: Map<string, string[]>;
  /** Section tags ({#name}, {^name}) by data name: shown or not. */
  sections: Record<string, boolean>;
  /** JSON data of advanced placeholders by top-level name: what paths, expressions and loops read. */
  data: Record<string, unknown>;
  /** Image sources by image key. */
  images: Map<string, { source: string; field: string; label: string }>;
  missingPlaceholders: string[];
}

interface Issue extends ValidationIssue {
  code: string;
}

const SECTION = /^[#^]|^-\S+\s/;

export function planVariables(input: readonly VariableInput[], placeholders: TemplatePlaceholder[]): RenderPlan {
  const issues: Issue[] = [];
  const add = (field: string, code: string, message: string) => issues.push({ field, code, message });
  if (input.length > LIMITS.variables) {
    // A gate, not a per-variable problem: checking each of an oversized list is wasted work.
    const message = `${input.length} variables were given; at most ${LIMITS.variables} are allowed`;
    throw new ValidationError(message, [{ field: "variables", message }], "TooManyVariables");
  }

  const known = new Set(placeholders.map((p) => p.placeholder));
  // "{client}" carries the JSON that {client.address.city}, {#client}… read, unless {client} is a plain tag too.
  const dataNames = advancedDataNames(placeholders).filter((name) => !known.has(`{${name}}`));
  // sections and data become render data keyed by user-chosen names: no prototype, so "__proto__" is just a name.
  const plan: RenderPlan = {
    values: new Map(),
    stacks: new Map(),
    sections: Object.create(null),
    data: Object.create(null),
    images: new Map(),
    missingPlaceholders: [],
  };
  const seen = new Map<string, number>();
  const unknown: string[] = [];

  input.forEach((raw, i) => {
    const field = `variables.${i}`;
    const v = checkValues(raw, field, add);
    if (!v) return;
    if (seen.has(v.placeholder)) {
      add(`${field}.placeholder`, "DuplicatePlaceholder", `${v.placeholder} is given twice (variables ${seen.get(v.placeholder)} and ${i})`);
      return;
    }
    seen.set(v.placeholder, i);
    const dataName = v.placeholder.slice(1, -1).trim();
    if (!known.has(v.placeholder) && dataNames.includes(dataName)) {
      if (v.isDisabled) return;
      planData(v, dataName, field);
      return;
    }
    if (!known.has(v.placeholder)) {
      unknown.push(v.placeholder);
      add(`${field}.placeholder`, "UnknownPlaceholder", `${v.placeholder} is not a placeholder of the template`);
      return;
    }
    if (v.isDisabled) return;

    const content = v.placeholder.slice(1, -1);
    const section = SECTION.test(content);
    const subs = substitutions(v, field, add);
    const resolve = (mimeType: MimeType, text: string, f: string): ResolvedValue => {
      if (mimeType === "text") return { kind: "text", text };
      if (mimeType === "image") {
        if (text.trim() === "") return { kind: "empty" };
        const imageKey = `img${plan.images.size}`;
        plan.images.set(imageKey, { source: text, field: f, label: v.placeholder });
        return { kind: "image", imageKey };
      }
      const tooDeep = (depth: number) => {
        add(f, "NestingTooDeep", `${v.placeholder}: the ${mimeType} is nested ${depth} levels deep; at most ${LIMITS.nesting} levels are allowed`);
        return { kind: "empty" } as const;
      };
      const depth = nestingDepth(mimeType, text);
      if (depth > LIMITS.nesting) return tooDeep(depth);
      const html = valueToHtml(mimeType, text, subs);
      const htmlDepth = nestingDepth("html", html);
      return htmlDepth > LIMITS.nesting ? tooDeep(htmlDepth) : { kind: "html", html };
    };

    if (v.stack) {
      if (section) {
        add(`${field}.variableStack`, "StackNotSupported", `${v.placeholder} is a section; variableStack repeats plain, html or image placeholders only`);
        return;
      }
      const prefix = /^(%%|%|@)?/.exec(content)?.[0] ?? "";
      const copies = v.stack.map((entry, j) => {
        const copy = `${prefix}__stack_${i}_${j}`;
        plan.values.set(copy, resolve(entry.mimeType, entry.text, `${field}.variableStack.${j}.text`));
        return copy;
      });
      plan.stacks.set(content, copies);
      return;
    }
    if (v.text === undefined) {
      const why = v.aiPrompt !== undefined ? " (its aiPrompt was not answered)" : "";
      add(`${field}.text`, "VariableTextRequired", `${v.placeholder} needs text, a variableStack or isDisabled${why}`);
      return;
    }
    if (section) {
      const name = content.replace(/^[#^]|^-\S+\s+/, "");
      const shown = v.text.trim() !== "" && !/^(false|0|no|off)$/i.test(v.text.trim());
      plan.sections[name] = plan.sections[name.trim()] = shown;
      return;
    }
    plan.values.set(content, resolve(v.mimeType, v.text, `${field}.text`));
  });

  if (issues.length > 0) throw toError(issues, unknown);
  const covered = new Set(seen.keys());
  const given = (name: string) => covered.has(`{${name}}`);
  plan.missingPlaceholders = placeholders
    .filter((p) => !covered.has(p.placeholder) && !(p.data?.length && p.data.every(given)) && !(p.loop && Object.keys(plan.data).length > 0))
    .map((p) => p.placeholder);
  return plan;

  /** A variable that carries JSON for advanced placeholders: parsed, and checked against what the template reads. */
  function planData(v: CheckedVariable, name: string, field: string): void {
    if (v.stack || v.subvariables.length > 0) {
      const which = v.stack ? "variableStack" : "subvariables";
      add(
        `${field}.${which}`,
        "AdvancedVariableMixed",
        `${v.placeholder} carries JSON data for the template's paths, loops and conditions; it cannot have ${which}`,
      );
      return;
    }
    if (v.text === undefined) {
      add(
        `${field}.value`,
        "VariableTextRequired",
        `${v.placeholder} needs a value: JSON data (an object, array, boolean or number) for the template's ${name}`,
      );
      return;
    }
    let value: unknown;
    try {
      // Objects without a prototype: a key named "__proto__" is data, never a way to a shared prototype.
      value = JSON.parse(v.text, (_key, item) =>
        item !== null && typeof item === "object" && !Array.isArray(item) ? Object.assign(Object.create(null), item) : item,
      );
    } catch (err) {
      const detail = err instanceof Error ? err.message.replace(/^JSON\.parse: /, "") : String(err);
      add(`${field}.value`, "InvalidJsonValue", `${v.placeholder}: the value must be JSON (an object, array, boolean or number): ${detail}`);
      return;
    }
    for (const problem of checkDataShape(name, value, placeholders)) add(`${field}.value`, "DataShapeMismatch", `${v.placeholder}: ${problem}`);
    plan.data[name] = value;
  }
}

interface CheckedVariable {
  placeholder: string;
  text?: string;
  mimeType: MimeType;
  isDisabled: boolean;
  aiPrompt?: string;
  stack?: VariableStackEntry[];
  subvariables: CheckedVariable[];
}

type Add = (field: string, code: string, message: string) => void;

/** Checks one variable's values and limits; returns it normalised, or null when unusable. */
function checkValues(v: VariableInput | Subvariable, field: string, add: Add): CheckedVariable | null {
  let ok = true;
  const { placeholder } = v;
  if (!/^\{[\s\S]*\}$/.test(placeholder) || placeholder.length < 3) {
    add(`${field}.placeholder`, "InvalidVariable", "must be the placeholder as written in the template, braces included, e.g. {Name}");
    ok = false;
  }
  if (v.value !== undefined && v.text !== undefined && v.value !== v.text) {
    add(`${field}.value`, "TextValueConflict", `${placeholder}: text and value are the same field (value is an alias of text); give one, or both equal`);
    ok = false;
  }
  const text = v.text ?? v.value;
  if (text !== undefined) ok = checkLength(text, v.mimeType === "image", `${field}.text`, placeholder, add) && ok;
  if (v.aiPrompt !== undefined && v.aiPrompt.length > LIMITS.aiPromptChars) {
    add(`${field}.aiPrompt`, "AiPromptTooLong", `${placeholder}: aiPrompt is ${v.aiPrompt.length} characters; at most ${LIMITS.aiPromptChars} are allowed`);
    ok = false;
  }
  const stack = v.variableStack === undefined ? undefined : checkStack(v.variableStack, `${field}.variableStack`, placeholder, add);
  if (stack === null) ok = false;

  const subvariables: CheckedVariable[] = [];
  const subs = "subvariables" in v ? v.subvariables : undefined;
  if (subs !== undefined && subs.length > LIMITS.subvariables) {
    add(`${field}.subvariables`, "TooManyVariables", `${placeholder}: at most ${LIMITS.subvariables} subvariables are allowed`);
    ok = false;
  } else {
    subs?.forEach((sub, j) => {
      const checked = checkValues(sub, `${field}.subvariables.${j}`, add);
      if (checked) subvariables.push(checked);
      else ok = false;
    });
  }
  if (!ok) return null;
  return { placeholder, text, mimeType: v.mimeType, isDisabled: v.isDisabled === true, aiPrompt: v.aiPrompt, stack: stack ?? undefined, subvariables };
}

function checkLength(text: string, image: boolean, field: string, label: string, add: Add): boolean {
  const max = image ? LIMITS.imageTextChars : LIMITS.textChars;
  if (text.length <= max) return true;
  add(field, "TextTooLong", `${label}: text is ${text.length} characters; at most ${max} are allowed${image ? " for an image" : ""}`);
  return false;
}

/** A stack as an array in index order (an object's keys are "0", "1", …, as the schema requires). */
function checkStack(raw: NonNullable<VariableInput["variableStack"]>, field: string, label: string, add: Add): VariableStackEntry[] | null {
  const entries: [string, VariableStackEntry][] = Array.isArray(raw)
    ? raw.map((entry, i) => [String(i), entry])
    : Object.entries(raw).sort(([a], [b]) => Number(a) - Number(b));
  if (entries.length > LIMITS.stackEntries) {
    add(field, "StackTooLarge", `${label}: variableStack has ${entries.length} entries; at most ${LIMITS.stackEntries} are allowed`);
    return null;
  }
  let ok = true;
  for (const [key, e] of entries) ok = checkLength(e.text, e.mimeType === "image", `${field}.${key}.text`, label, add) && ok;
  return ok ? entries.map(([, e]) => ({ text: e.text, mimeType: e.mimeType })) : null;
}

/** Subvariables as token substitutions; each token must occur in the parent's html or markdown. */
function substitutions(v: CheckedVariable, field: string, add: Add): Substitution[] {
  if (v.subvariables.length === 0) return [];
  const texts = [v.text, ...(v.stack ?? []).filter((e) => e.mimeType === "html" || e.mimeType === "markdown").map((e) => e.text)];
  const parentIsRich = v.mimeType === "html" || v.mimeType === "markdown" || texts.length > 1;
  if (!parentIsRich) {
    add(`${field}.subvariables`, "SubvariablesNotSupported", `${v.placeholder}: subvariables need an html or markdown parent`);
    return [];
  }
  const seen = new Set<string>();
  const subs: Substitution[] = [];
  v.subvariables.forEach((sub, j) => {
    const f = `${field}.subvariables.${j}`;
    if (!/^\{[^{}]+\}$/.test(sub.placeholder)) {
      add(`${f}.placeholder`, "InvalidVariable", `${sub.placeholder}: a subvariable token is written in braces without nested braces, e.g. {Token}`);
    } else if (seen.has(sub.placeholder)) {
      add(`${f}.placeholder`, "DuplicatePlaceholder", `${v.placeholder}: subvariable ${sub.placeholder} is given twice`);
    } else if (!texts.some((text) => text?.includes(sub.placeholder))) {
      add(`${f}.placeholder`, "SubvariableNotFound", `${v.placeholder}: subvariable ${sub.placeholder} does not occur in the parent's text`);
    } else if (sub.mimeType === "image") {
      add(`${f}.mimeType`, "SubvariablesNotSupported", `${sub.placeholder}: image subvariables are not supported; use an image placeholder`);
    } else if (sub.text === undefined && !sub.isDisabled) {
      add(`${f}.text`, "VariableTextRequired", `${v.placeholder}: subvariable ${sub.placeholder} needs text or isDisabled`);
    } else {
      seen.add(sub.placeholder);
      subs.push({ token: sub.placeholder, mimeType: sub.mimeType, text: sub.isDisabled ? "" : (sub.text ?? "") });
    }
  });
  return subs;
}

function toError(issues: Issue[], unknown: string[]): Error {
  const validation = issues.filter((issue) => issue.code !== "AiPromptTooLong");
  const strip = ({ field, message }: Issue): ValidationIssue => ({ field, message });
  if (validation.length === 0) {
    // Length limits on aiPrompt are field constraints (422), not malformed input.
    return new UnprocessableError(issues.map((issue) => issue.message).join("; "), "AiPromptTooLong");
  }
  const codes = new Set(issues.map((issue) => issue.code));
  const code = codes.size === 1 ? issues[0].code : "ValidationError";
  let message: string;
  if (code === "UnknownPlaceholder") {
    message = `${unknown.length === 1 ? "Placeholder" : "Placeholders"} not in the template: ${unknown.join(", ")}`;
  } else if (issues.length === 1) {
    message = issues[0].message;
  } else {
    const shown = issues.slice(0, 5).map((issue) => issue.message);
    message = `${issues.length} problems with the variables: ${shown.join("; ")}${issues.length > 5 ? "; …" : ""}`;
  }
  return new ValidationError(message, issues.slice(0, 100).map(strip), code);
}
