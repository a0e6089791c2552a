// Quire embed: frames a signing URL in your page and hands you the signing page's messages
// (docs/contract.md "Embedded signing"). Framework-free; the same source is served as /embed.js (a global
// `Quire`, bundled at build time by scripts/build-embed.mjs) and used by the React component in
// lib/sdk/react.tsx.
//
// A message is accepted only when it comes from the signing page's own origin (the origin of the
// URL you framed) AND from this frame's window; everything else on the page is ignored. The
// message tells the user interface what happened; confirm the signature on your server (GET
// /esign/documents/{id}/status) before you rely on it.

export type CompletionEvent = "signing_complete" | "already_signed";

/** The completion message: posted by the signing page when this signer has finished. */
export interface CompletedMessage {
  type: "esign:completed";
  documentId: string;
  status: "completed";
  /** `signing_complete` when the signer just finished, `already_signed` when a signed link was reopened. */
  event: CompletionEvent;
  scope: "recipient";
}

/** Defined by the embed package for pages that decline (not sent by Quire's own signing page). */
export interface DeclinedMessage {
  type: "esign:declined";
  documentId?: string;
  reason?: string;
}

/** Defined by the embed package for pages that fail (not sent by Quire's own signing page). */
export interface ErrorMessage {
  type: "esign:error";
  documentId?: string;
  code?: string;
  message?: string;
}

export type QuireMessage = CompletedMessage | DeclinedMessage | ErrorMessage;

export interface MountOptions {
  /** The signing URL from POST /esign/documents/{id}/signing-url (request it when the signer clicks; do not store it). */
  url: string;
  onCompleted?: (message: CompletedMessage) => void;
  onDeclined?: (message: DeclinedMessage) => void;
  onError?: (message: ErrorMessage) => void;
  /** Every accepted message, whatever its type. */
  onMessage?: (message: QuireMessage) => void;
  /** CSS height of the frame (a number means pixels). Default 720px. */
  height?: number | string;
  /** CSS width of the frame. Default 100%. */
  width?: number | string;
  /** Accessible name of the frame. */
  title?: string;
  className?: string;
  /**
   * Referrer policy of the frame. The signing page posts its messages only to the embedding origin
   * the browser names in Referer, so the default `origin` sends exactly that (never your path);
   * `no-referrer` would silence the messages.
   */
  referrerPolicy?: ReferrerPolicy;
}

export interface QuireEmbed {
  iframe: HTMLIFrameElement;
  /** The origin messages must come from (the signing URL's origin). */
  origin: string;
  /** Removes the frame and stops listening. */
  destroy(): void;
}

/** The origin of a signing URL; throws for anything but an absolute http(s) URL. */
export function signingOrigin(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError("Quire: url must be an absolute signing URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new TypeError("Quire: url must be an http(s) signing URL");
  return parsed.origin;
}

const isString = (v: unknown): v is string => typeof v === "string";
const optionalString = (v: unknown) => v === undefined || isString(v);

/**
 * The message carried by a `message` event, or null when it must be ignored: wrong origin, wrong
 * window, or not one of the package's messages.
 */
export function acceptMessage(event: { origin: string; source: unknown; data: unknown }, expectedOrigin: string, frameWindow: unknown): QuireMessage | null {
  if (event.origin !== expectedOrigin) return null;
  if (!frameWindow || event.source !== frameWindow) return null;
  const d = event.data as Record<string, unknown> | null;
  if (!d || typeof d !== "object") return null;
  if (d.type === "esign:completed") {
    if (!isString(d.documentId) || d.status !== "completed" || (d.event !== "signing_complete" && d.event !== "already_signed") || d.scope !== "recipient")
      return null;
    return { type: d.type, documentId: d.documentId, status: d.status, event: d.event, scope: d.scope };
  }
  if (d.type === "esign:declined") {
    if (!optionalString(d.documentId) || !optionalString(d.reason)) return null;
    return { type: d.type, documentId: d.documentId as string | undefined, reason: d.reason as string | undefined };
  }
  if (d.type === "esign:error") {
    if (!optionalString(d.documentId) || !optionalString(d.code) || !optionalString(d.message)) return null;
    return { type: d.type, documentId: d.documentId as string | undefined, code: d.code as string | undefined, message: d.message as string | undefined };
  }
  return null;
}

const cssSize = (v: number | string | undefined, fallback: string) => (v === undefined ? fallback : typeof v === "number" ? `${v}px` : v);

/** Frames the signing URL inside `target` (an element or a CSS selector) and listens for its messages. */
export function mount(target: Element | string, options: MountOptions): QuireEmbed {
  const container = typeof target === "string" ? document.querySelector(target) : target;
  if (!container) throw new Error(`Quire: no element matches ${String(target)}`);
  if (!options || !isString(options.url)) throw new TypeError("Quire: options.url is required");
  const origin = signingOrigin(options.url);

  const iframe = document.createElement("iframe");
  iframe.title = options.title ?? "Sign document";
  iframe.referrerPolicy = options.referrerPolicy ?? "origin";
  iframe.style.border = "0";
  iframe.style.display = "block";
  iframe.style.width = cssSize(options.width, "100%");
  iframe.style.height = cssSize(options.height, "720px");
  if (options.className) iframe.className = options.className;
  iframe.setAttribute("data-quire-embed", "");
  iframe.src = options.url;

  const listener = (event: MessageEvent) => {
    const message = acceptMessage(event, origin, iframe.contentWindow);
    if (!message) return;
    options.onMessage?.(message);
    if (message.type === "esign:completed") options.onCompleted?.(message);
    else if (message.type === "esign:declined") options.onDeclined?.(message);
    else options.onError?.(message);
  };
  window.addEventListener("message", listener);
  container.appendChild(iframe);

  let destroyed = false;
  return {
    iframe,
    origin,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      window.removeEventListener("message", listener);
      iframe.remove();
    },
  };
}

export const version = "1";
