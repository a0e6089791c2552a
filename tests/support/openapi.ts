// Validates JSON against the schemas of the OpenAPI document with ajv (JSON Schema draft 2020-12,
// the dialect of OpenAPI 3.1), so tests can prove the document describes what the server sends.
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

type Doc = { paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>> };

const DOC_ID = "quire-openapi";

/** JSON Pointer escaping of one path segment. */
const seg = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

export function openApiValidator(document: object) {
  const doc = document as Doc;
  // strict mode would reject OpenAPI's own keywords (example) beside the JSON Schema ones.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat("binary", true);
  ajv.addSchema(doc as object, DOC_ID);
  const cache = new Map<string, ValidateFunction>();

  function compile(pointer: string): ValidateFunction {
    let fn = cache.get(pointer);
    if (!fn) cache.set(pointer, (fn = ajv.compile({ $ref: `${DOC_ID}#${pointer}` })));
    return fn;
  }

  return {
    /** The JSON schema of a documented response; throws when the document has none. */
    responsePointer(method: string, path: string, status: number): string {
      const op = doc.paths?.[path]?.[method.toLowerCase()];
      if (!op) throw new Error(`the document has no operation ${method.toUpperCase()} ${path}`);
      const content = op.responses?.[String(status)]?.content?.["application/json"];
      if (!content?.schema) throw new Error(`the document has no JSON body for ${method.toUpperCase()} ${path} ${status}`);
      return `/paths/${seg(path)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    },
    /** Errors of `body` against the documented response, or [] when it conforms. */
    responseErrors(method: string, path: string, status: number, body: unknown): ErrorObject[] {
      const validate = compile(this.responsePointer(method, path, status));
      return validate(body) ? [] : (validate.errors ?? []);
    },
    /** Errors of `value` against a components/schemas entry. */
    componentErrors(name: string, value: unknown): ErrorObject[] {
      const validate = compile(`/components/schemas/${seg(name)}`);
      return validate(value) ? [] : (validate.errors ?? []);
    },
    /** Compiles every schema of the document (throws on an invalid one). */
    compileAll(): number {
      let n = 0;
      const walk = (node: unknown, pointer: string) => {
        if (!node || typeof node !== "object") return;
        for (const [key, value] of Object.entries(node)) {
          const here = `${pointer}/${seg(key)}`;
          if (key === "schema" && value && typeof value === "object") {
            compile(here);
            n++;
          } else walk(value, here);
        }
      };
      walk((doc as { paths?: unknown }).paths, "/paths");
      walk((doc as { webhooks?: unknown }).webhooks, "/webhooks");
      for (const name of Object.keys((doc as { components?: { schemas?: object } }).components?.schemas ?? {})) {
        compile(`/components/schemas/${seg(name)}`);
        n++;
      }
      return n;
    },
  };
}

export function describeErrors(errors: ErrorObject[]): string {
  return errors
    .map((e) => `${e.instancePath || "(root)"} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ""}`)
    .join("\n");
}
