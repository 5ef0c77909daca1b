import { useEffect, useRef, useState } from "react";

/**
 * An element's width in CSS pixels, followed as it resizes, so a hand-drawn chart is drawn 1:1
 * and its small text stays legible on a phone. `initial` is used until the first measurement
 * (and where ResizeObserver does not exist); a measurement below `min` counts as `min`.
 */
export function useMeasuredWidth<T extends HTMLElement>(initial: number, min: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver((entries) => {
      const measured = entries[0]?.contentRect.width;
      if (measured) setWidth(Math.max(min, Math.round(measured)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [min]);
  return [ref, width] as const;
}
