// Page facts and page images for the hosted signing page, from poppler (pdfinfo, pdftoppm):
// the browser then shows plain images with the signer's fields laid over them, which works on
// every phone without a PDF engine in the page.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { UnavailableError, UnprocessableError } from "@/lib/errors";

const run = promisify(execFile);

async function withTempPdf<T>(pdf: Buffer, fn: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "quire-raster-"));
  try {
    const file = path.join(dir, "doc.pdf");
    await fs.writeFile(file, pdf);
    return await fn(file, dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function explain(err: unknown): never {
  const e = err as NodeJS.ErrnoException & { stderr?: string };
  if (e.code === "ENOENT") throw new UnavailableError("poppler-utils (pdfinfo, pdftoppm) is not installed: run scripts/install-system-deps.sh", "PdfToolsMissing");
  throw new UnprocessableError(`The PDF could not be read: ${(e.stderr ?? e.message).trim().slice(0, 200)}`, "PdfUnreadable");
}

export interface PageSize {
  width: number;
  height: number;
}

/** Size of every page in PDF points (rotation applied, as viewers show it). */
export async function pageSizes(pdf: Buffer): Promise<PageSize[]> {
  return withTempPdf(pdf, async (file) => {
    const { stdout } = await run("pdfinfo", ["-f", "1", "-l", "100000", file], { maxBuffer: 16 * 1024 * 1024 }).catch(explain);
    const sizes: PageSize[] = [];
    for (const line of stdout.split("\n")) {
      const size = /^Page\s+(\d+)\s+size:\s+([\d.]+) x ([\d.]+)/.exec(line);
      if (size) sizes[Number(size[1]) - 1] = { width: Number(size[2]), height: Number(size[3]) };
      const rot = /^Page\s+(\d+)\s+rot:\s+(\d+)/.exec(line);
      if (rot && (Number(rot[2]) === 90 || Number(rot[2]) === 270)) {
        const s = sizes[Number(rot[1]) - 1];
        if (s) sizes[Number(rot[1]) - 1] = { width: s.height, height: s.width };
      }
    }
    if (sizes.length === 0) throw new UnprocessableError("The PDF has no pages", "PdfUnreadable");
    return sizes;
  });
}

export async function pageCount(pdf: Buffer): Promise<number> {
  return (await pageSizes(pdf)).length;
}

/** One page as a PNG, `width` pixels wide. */
export async function renderPage(pdf: Buffer, page: number, width = 1100): Promise<Buffer> {
  return withTempPdf(pdf, async (file, dir) => {
    const out = path.join(dir, "page");
    await run("pdftoppm", ["-f", String(page), "-l", String(page), "-png", "-singlefile", "-scale-to-x", String(width), "-scale-to-y", "-1", file, out]).catch(explain);
    return fs.readFile(`${out}.png`);
  });
}
