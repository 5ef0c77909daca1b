import { useSyncExternalStore } from "react";

/** Media queries the screens switch on (Tailwind's md breakpoint is 48rem). */
export const WIDE_SCREEN_QUERY = "(min-width: 48rem)";
export const NARROW_SCREEN_QUERY = "(max-width: 39.99rem)";

/** True while the media query matches; follows changes (rotation, resizing). False without a DOM. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window === "undefined" || !window.matchMedia) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => typeof window !== "undefined" && !!window.matchMedia?.(query).matches,
    () => false,
  );
}
