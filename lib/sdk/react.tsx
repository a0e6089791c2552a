"use client";
// <QuireSigning url=... onCompleted=... />: the embed core (lib/sdk/embed.ts) as a React component.
// The frame is created once per url; callbacks may change between renders without reloading it.
import { useEffect, useRef } from "react";
import { mount, type MountOptions } from "./embed.js";

export type { CompletedMessage, DeclinedMessage, ErrorMessage, QuireMessage } from "./embed.js";

/** The embed core's options; `className` and `style` style the wrapping element instead of the frame. */
export interface QuireSigningProps extends Omit<MountOptions, "className"> {
  className?: string;
  style?: React.CSSProperties;
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
