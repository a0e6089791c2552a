// Image values: a data URL, bare base64 or an https URL (downloaded by the caller's fetchImage,
// which owns SSRF and transport rules). The bytes must be PNG, JPEG or GIF, judged by their magic
// numbers rather than any declared type, and at most 10 MB.
import { imageSize } from "image-size";
import { QuireError, ValidationError, type ValidationIssue } from "@/lib/errors";
import type { PreparedImage } from "./types";

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const FETCH_CONCURRENCY = 4;

type ImageIssue = ValidationIssue & { code: "InvalidImage" | "ImageTooLarge" | "ImageFetchFailed" };

class ImageProblem extends Error {
  constructor(
    message: string,
    readonly code: ImageIssue["code"],
  ) {
    super(message);
  }
}

/** Decodes, fetches and measures every image; all problems are reported together. */
export async function prepareImages(
  sources: Map<string, { source: string; field: string; label: string }>,
  fetchImage: (url: string) => Promise<Buffer>,
): Promise<Map<string, PreparedImage>> {
  const prepared = new Map<string, PreparedImage>();
  const issues: ImageIssue[] = [];
  const queue = [...sources];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [key, { source, field, label }] = next;
      try {
        prepared.set(key, measure(await load(source, fetchImage)));
      } catch (err) {
        if (err instanceof ImageProblem) issues.push({ field, message: `${label}: ${err.message}`, code: err.code });
        else if (err instanceof QuireError) throw err;
        else issues.push({ field, message: `${label}: the image could not be downloaded (${(err as Error).message})`, code: "ImageFetchFailed" });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, queue.length) }, worker));
  if (issues.length > 0) {
    issues.sort((a, b) => a.field.localeCompare(b.field, "en", { numeric: true }));
    const codes = new Set(issues.map((issue) => issue.code));
    const message = issues.length === 1 ? issues[0].message : `${issues.length} images are unusable: ${issues.map((i) => i.message).join("; ")}`;
    throw new ValidationError(
      message,
      issues.map(({ field, message: m }) => ({ field, message: m })),
      codes.size === 1 ? issues[0].code : "InvalidImage",
    );
  }
  return prepared;
}

async function load(source: string, fetchImage: (url: string) => Promise<Buffer>): Promise<Buffer> {
  const text = source.trim();
  if (/^https:\/\//i.test(text)) {
    const data = await fetchImage(text);
    if (data.length > MAX_IMAGE_BYTES) throw tooLarge(data.length);
    return data;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) && !/^data:/i.test(text)) {
    throw new ImageProblem("An image URL must use https; give a data URL, base64 or an https URL", "InvalidImage");
  }
  const dataUrl = /^data:([^,]*),/i.exec(text);
  if (dataUrl && !/;base64$/i.test(dataUrl[1])) {
    throw new ImageProblem("A data URL image must be base64-encoded (data:image/png;base64,…)", "InvalidImage");
  }
  return decodeBase64(dataUrl ? text.slice(dataUrl[0].length) : text);
}

function decodeBase64(text: string): Buffer {
  // Accept standard and URL-safe alphabets, with or without padding and line breaks, nothing else.
  const compact = text.replace(/\s+/g, "");
  if (compact === "" || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact) || compact.replace(/=+$/, "").length % 4 === 1) {
    throw new ImageProblem("The image is not valid base64, a data URL or an https URL", "InvalidImage");
  }
  // Checked before decoding so an oversized value is never held twice.
  const decodedLength = Math.floor((compact.replace(/=+$/, "").length * 3) / 4);
  if (decodedLength > MAX_IMAGE_BYTES) throw tooLarge(decodedLength);
  // Node's base64 decoder reads both alphabets.
  return Buffer.from(compact, "base64");
}

function tooLarge(bytes: number): ImageProblem {
  const mb = (n: number) => `${+(n / 1024 / 1024).toFixed(1)} MB`;
  return new ImageProblem(`The image is ${mb(bytes)}; at most ${mb(MAX_IMAGE_BYTES)} is allowed`, "ImageTooLarge");
}

export function sniffImage(data: Buffer): PreparedImage["extension"] | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "jpeg";
  if (data.length >= 6 && /^GIF8[79]a$/.test(data.subarray(0, 6).toString("latin1"))) return "gif";
  return null;
}

function measure(data: Buffer): PreparedImage {
  const extension = sniffImage(data);
  if (!extension) throw new ImageProblem("The image is not a PNG, JPEG or GIF file", "InvalidImage");
  let size: { width?: number; height?: number; orientation?: number };
  try {
    size = imageSize(data);
  } catch {
    throw new ImageProblem(`The ${extension.toUpperCase()} image is damaged: its size cannot be read`, "InvalidImage");
  }
  const { width, height, orientation } = size;
  if (!width || !height || width <= 0 || height <= 0) {
    throw new ImageProblem(`The ${extension.toUpperCase()} image has no usable size`, "InvalidImage");
  }
  // EXIF orientations 5-8 rotate a quarter turn: the picture shows with width and height swapped.
  const rotated = orientation !== undefined && orientation >= 5 && orientation <= 8;
  return { data, extension, width: rotated ? height : width, height: rotated ? width : height };
}

/**
 * Display size in EMU: natural size at 96 dpi, shrunk (never enlarged) to fit `maxWidth` and, when
 * given, `maxHeight`, keeping the aspect ratio.
 */
export function fitImage(image: PreparedImage, maxWidth: number, maxHeight = Number.POSITIVE_INFINITY): { cx: number; cy: number } {
  const EMU_PER_PIXEL = 9525;
  const width = image.width * EMU_PER_PIXEL;
  const height = image.height * EMU_PER_PIXEL;
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { cx: Math.max(1, Math.round(width * scale)), cy: Math.max(1, Math.round(height * scale)) };
}
