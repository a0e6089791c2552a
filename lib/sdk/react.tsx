"use client";
// <QuireSigning url=... onCompleted=... />: the embed core (lib/sdk/embed.ts) as a React component.
// The frame is created once per url; callbacks may change between renders without reloading it.
import { useEffect, useRef } from "react";
import { mount, type CompletedMessage, type DeclinedMessage, type ErrorMessage, type QuireMessage } from "./embed.js";

export type { CompletedMessage, DeclinedMessage, ErrorMessage, QuireMessage } from "./embed.js";

export interface QuireSigningProps {
  /** The signing URL from POST /esign/documents/{id}/signing-url. */
  url: string;
  onCompleted?: (message: CompletedMessage) => void;
  onDeclined?: (message: DeclinedMessage) => void;
  onError?: (message: ErrorMessage) => void;
  onMessage?: (message: QuireMessage) => void;
  /** CSS height of the frame (a number means pixels). Default 720px. */
  height?: number | string;
  width?: number | string;
  title?: string;
  /** Class of the wrapping element. */
  className?: string;
  style?: React.CSSProperties;
  referrerPolicy?: ReferrerPolicy;
}

export function QuireSigning({ url, onCompleted, onDeclined, onError, onMessage, height, width, title, className, style, referrerPolicy }: QuireSigningProps) {
  const container = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onCompleted, onDeclined, onError, onMessage });
  useEffect(() => {
    handlers.current = { onCompleted, onDeclined, onError, onMessage };
  });

  useEffect(() => {
    if (!container.current) return;
    const embed = mount(container.current, {
      url,
      height,
      width,
      title,
      referrerPolicy,
      onCompleted: (m) => handlers.current.onCompleted?.(m),
      onDeclined: (m) => handlers.current.onDeclined?.(m),
      onError: (m) => handlers.current.onError?.(m),
      onMessage: (m) => handlers.current.onMessage?.(m),
    });
    return () => embed.destroy();
  }, [url, height, width, title, referrerPolicy]);

  return <div ref={container} className={className} style={style} data-quire-signing="" />;
}
