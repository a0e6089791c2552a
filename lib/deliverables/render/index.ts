// The generation engine: fills a DOCX/PPTX template with variables (docs/contract.md
// "Deliverables"). Domain code only: no HTTP, no database; images at https URLs are downloaded
// through the caller's fetchImage.
//
// Stages:
//   1. inspect the template (same checks and placeholder list as at upload; once per distinct content),
//      and read its styles, text width and highest ids (template-facts.ts; once per distinct content too)
//   2. validate every variable up front and resolve its value (plan.ts); fetch/decode images
//   3. if any variable has a variableStack: repeat its paragraphs/rows (stacks.ts)
//   4. render with docxtemplater, our module deciding how each tag is written (module.ts) and the
//      image module placing pictures (image-module.ts)
//   5. write package-level additions (links, numbering, default font) and count fonts
// Stages 3-5 run once per shape of values when the shape comes back (skeletons.ts): a later document
// of the shape is its skeleton with the document's plain text written in.
import type Docxtemplater from "docxtemplater";
import PizZip from "pizzip";
import { ValidationError } from "@/lib/errors";
import { DOCXTEMPLATER_OPTIONS, NOT_TEMPLATED } from "@/lib/templates/inspect";
import { readFonts } from "./fonts";
import { dropEmptiedParagraphs } from "./emptied-paragraphs";
import { createImageModule } from "./image-module";
import { prepareImages } from "./images";
import { inspectForRender, templateDigest, templateKey } from "./inspection-cache";
import { LexCachingDocxtemplater } from "./lexed-cache";
import { createRenderModule, type RenderModuleState } from "./module";
import { CONTENT_PARTS, PackageContext } from "./package";
import { planVariables, type RenderPlan } from "./plan";
import { toRenderError } from "./render-errors";
import { type FilledPackage, fromSkeleton, packaged, shapeOf } from "./skeletons";
import { expandStacks } from "./stacks";
import { readTemplateFacts } from "./template-facts";
import { MAX_FONT_NAME, type PreparedImage, type RenderOptions, type RenderResult, type TemplateKind, type VariableInput } from "./types";
import { installNativeDeflate } from "./zip-codec";

installNativeDeflate();

export type { MimeType, RenderOptions, RenderResult, VariableInput, VariableStackEntry } from "./types";
export { LIMITS } from "./plan";
export { MAX_IMAGE_BYTES } from "./images";

export async function renderTemplate(template: Buffer, kind: TemplateKind, variables: VariableInput[], opts: RenderOptions): Promise<RenderResult> {
  const requestedFont = checkDefaultFont(opts.defaultFont);
  const digest = templateDigest(template);
  const inspection = await inspectForRender(template, kind, digest);
  const plan = planVariables(variables, inspection.placeholders);
  const images = await prepareImages(plan.images, opts.fetchImage);
  const fill = (planned: RenderPlan) => fillPackage(template, kind, digest, planned, images, requestedFont);

  const shape = shapeOf(kind, templateKey(kind, digest), inspection.placeholders, plan, requestedFont);
  const written = (shape && fromSkeleton(shape, fill)) ?? packaged(fill(plan));
  return { ...written, missingPlaceholders: plan.missingPlaceholders };
}

/** Stages 3-5: the template filled as the plan says, not yet compressed. */
function fillPackage(
  template: Buffer,
  kind: TemplateKind,
  digest: string,
  plan: RenderPlan,
  images: Map<string, PreparedImage>,
  requestedFont: string | undefined,
): FilledPackage {
  try {
    let zip = new PizZip(template);
    const facts = readTemplateFacts(zip, kind, digest);
    // Document properties stay as they are: set aside while docxtemplater works, put back after as
    // the entries they were, so their bytes go out still compressed (never inflated nor deflated again).
    const untouched = Object.keys(zip.files)
      .filter((name) => NOT_TEMPLATED.test(name) && !zip.files[name].dir)
      .map((name) => [name, zip.files[name]] as const);
    for (const [name] of untouched) zip.remove(name);
    if (plan.stacks.size > 0) zip = expandStacks(zip, kind, plan.stacks, digest);
    const pkg = new PackageContext(zip, kind, facts);
    if (images.size > 0) pkg.ensureRelationshipParts();
    // Filled while docxtemplater compiles (in its constructor), read when it renders.
    // Plain text values also go in under their names, so expressions ({price * quantity}) can use them.
    const data: Record<string, unknown> = Object.assign(Object.create(null), plan.sections, plan.data);
    for (const [content, value] of plan.values) if (value.kind === "text" && !(content in data)) data[content.trim()] = value.text;
    const state: RenderModuleState = { data, occurrences: new Map() };
    const modules = [
      createRenderModule(kind, plan, pkg, state),
      createImageModule(kind, images, state.occurrences, () => pkg.drawingId()),
    ] as unknown as Docxtemplater.DXT.Module[];
    const doc = new LexCachingDocxtemplater(zip, {
      ...DOCXTEMPLATER_OPTIONS,
      modules,
      errorLogging: false,
      stripInvalidXMLChars: true,
      nullGetter: () => "",
    });
    doc.render(state.data);
    for (const [name, entry] of untouched) zip.files[name] = entry;
    for (const name of Object.keys(zip.files).filter((n) => CONTENT_PARTS[kind].test(n))) {
      const xml = zip.file(name)!.asText();
      const cleaned = dropEmptiedParagraphs(xml, kind === "docx" ? "w" : "a");
      if (cleaned !== xml) zip.file(name, cleaned);
    }
    pkg.finish(requestedFont);

    // A requested default font rewrote the styles (DOCX): they are read again; otherwise as the package read them.
    const { fonts, defaultFont } = readFonts(zip, kind, requestedFont ? undefined : pkg);
    return { zip, fonts, defaultFont: requestedFont ?? defaultFont };
  } catch (err) {
    throw toRenderError(err);
  }
}

function checkDefaultFont(font: string | undefined): string | undefined {
  if (font === undefined || font.trim() === "") return undefined;
  const name = font.trim();
  // eslint-disable-next-line no-control-regex
  if (name.length > MAX_FONT_NAME || /[\u0000-\u001f<>"]/.test(name)) {
    const message = `defaultFont must be a font name of at most ${MAX_FONT_NAME} characters`;
    throw new ValidationError(message, [{ field: "defaultFont", message }], "InvalidDefaultFont");
  }
  return name;
}
