// Reads the signatures out of a PDF as a verifier would, independently of the code that wrote them:
// each /ByteRange and /Contents, the CMS checked by `openssl cms -verify`, and the RFC 3161 signature
// timestamp (unsigned attribute id-aa-signatureTimeStampToken) checked by `openssl ts -verify`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

export interface PdfSignature {
  byteRange: [number, number, number, number];
  /** The DER CMS, without the placeholder's zero padding. */
  cms: Buffer;
  /** The bytes the signature covers. */
  signedBytes: Buffer;
  subFilter: string | null;
}

function derLength(der: Buffer): number {
  if (der[0] !== 0x30) throw new Error("the signature is not a DER SEQUENCE");
  const first = der[1];
  if (first < 0x80) return 2 + first;
  const n = first & 0x7f;
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + der[2 + i];
  return 2 + n + len;
}

export function signaturesOf(pdf: Buffer): PdfSignature[] {
  const text = pdf.toString("latin1");
  const out: PdfSignature[] = [];
  for (const m of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    const [a, b, c, d] = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
    if (b === 0 && c === 0) continue;
    const hex = text.slice(a + b, c).replace(/[<>\s]/g, "");
    const raw = Buffer.from(hex, "hex");
    const cms = raw.subarray(0, derLength(raw));
    // The dictionary around this /ByteRange names its SubFilter.
    const dict = text.slice(Math.max(0, m.index! - 600), Math.min(text.length, m.index! + 600));
    out.push({
      byteRange: [a, b, c, d],
      cms,
      signedBytes: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]),
      subFilter: /\/SubFilter\s*\/([\w.]+)/.exec(dict)?.[1] ?? null,
    });
  }
  return out;
}

function tmp(files: Record<string, Buffer>): { dir: string; file: (n: string) => string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-cms-"));
  for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), data);
  return { dir, file: (n) => path.join(dir, n) };
}

function run(args: string[]): { ok: boolean; output: string } {
  try {
    const out = execFileSync("openssl", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    return { ok: true, output: out };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/** `openssl cms -verify` over the covered bytes (the signer's chain is not checked: -noverify). */
export function verifyCms(sig: PdfSignature): { ok: boolean; output: string } {
  const t = tmp({ "sig.der": sig.cms, "content.bin": sig.signedBytes });
  try {
    return run([
      "cms",
      "-verify",
      "-binary",
      "-inform",
      "DER",
      "-in",
      t.file("sig.der"),
      "-content",
      t.file("content.bin"),
      "-noverify",
      "-out",
      t.file("out.bin"),
    ]);
  } finally {
    fs.rmSync(t.dir, { recursive: true, force: true });
  }
}

const SIGNATURE_TIMESTAMP = "1.2.840.113549.1.9.16.2.14";
const SIGNING_CERTIFICATE_V2 = "1.2.840.113549.1.9.16.2.47";

function signerInfoOf(cms: Buffer): pkijs.SignerInfo {
  const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(new Uint8Array(cms)).result });
  const signed = new pkijs.SignedData({ schema: info.content });
  return signed.signerInfos[0];
}

/** The CMS's signed attribute types (e.g. to see signing-certificate-v2, PAdES B-B). */
export function signedAttributeTypes(cms: Buffer): string[] {
  return (signerInfoOf(cms).signedAttrs?.attributes ?? []).map((a) => a.type);
}

export { SIGNING_CERTIFICATE_V2 };

/** The signature timestamp token, if any, and `openssl ts -verify` of it against the signature value. */
export function verifySignatureTimestamp(sig: PdfSignature, caFile: string, untrusted?: string): { present: boolean; ok: boolean; output: string } {
  const signer = signerInfoOf(sig.cms);
  const attr = signer.unsignedAttrs?.attributes.find((a) => a.type === SIGNATURE_TIMESTAMP);
  if (!attr) return { present: false, ok: false, output: "no signature timestamp" };
  const token = Buffer.from(attr.values[0].toBER(false));
  const value = Buffer.from(signer.signature.valueBlock.valueHexView);
  const t = tmp({ "token.der": token, "value.bin": value });
  try {
    const r = run([
      "ts",
      "-verify",
      "-data",
      t.file("value.bin"),
      "-in",
      t.file("token.der"),
      "-token_in",
      "-CAfile",
      caFile,
      ...(untrusted ? ["-untrusted", untrusted] : []),
    ]);
    return { present: true, ...r };
  } finally {
    fs.rmSync(t.dir, { recursive: true, force: true });
  }
}

/** pdfsig's report (poppler). */
export function pdfsig(pdf: Buffer): string {
  const t = tmp({ "d.pdf": pdf });
  try {
    return execFileSync("pdfsig", [t.file("d.pdf")], { encoding: "utf8" });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ""}${e.stderr ?? ""}`;
  } finally {
    fs.rmSync(t.dir, { recursive: true, force: true });
  }
}
