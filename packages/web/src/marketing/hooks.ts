import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useReducer,
  useState,
  useSyncExternalStore,
  type FocusEvent,
  type RefObject,
} from "react";
import { useLocation } from "react-router-dom";
import { autoplayRunning, carouselReducer, initialCarousel } from "./carousel";
import { isPlainClick, prefersReducedMotion, scrollToSection } from "./scroll";
import { tileProgress } from "./tiles";

export { prefersReducedMotion, scrollToSection };

// ---------------------------------------------------------------------------------------------
// prefers-reduced-motion

function subscribeReducedMotion(onChange: () => void) {
  if (typeof window === "undefined" || !window.matchMedia) return () => {};
  const query = window.matchMedia("(prefers-reduced-motion: reduce)");
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** True while the visitor asks for reduced motion; follows changes of the OS setting. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribeReducedMotion, prefersReducedMotion, () => false);
}

// ---------------------------------------------------------------------------------------------
// Page visibility

function subscribeVisibility(onChange: () => void) {
  document.addEventListener("visibilitychange", onChange);
  return () => document.removeEventListener("visibilitychange", onChange);
}

export function useDocumentHidden(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.hidden,
    () => false,
  );
}

// ---------------------------------------------------------------------------------------------
// Carousel with autoplay

export interface CarouselOptions {
  count: number;
  /** Milliseconds per slide when autoplaying; 0 for a manual carousel. */
  intervalMs?: number;
}

/**
 * Slide index plus autoplay (WAI-ARIA carousel pattern): the timer restarts on every slide
 * change, stops while the pointer is over the carousel or focus is inside it, while the tab is
 * hidden, and does not start at all under prefers-reduced-motion (the visitor can still press Play).
 */
export function useCarousel({ count, intervalMs = 0 }: CarouselOptions) {
  const reducedMotion = useReducedMotion();
  const autoplay = intervalMs > 0;
  const [state, dispatch] = useReducer(carouselReducer, undefined, () =>
    initialCarousel(count, autoplay && !prefersReducedMotion()),
  );
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const hidden = useDocumentHidden();

  // Turning reduced motion on while the page is open stops the rotation too.
  useEffect(() => {
    if (reducedMotion) dispatch({ type: "pause" });
  }, [reducedMotion]);

  const running = autoplay && autoplayRunning({ playing: state.playing, held: hovered || focused, hidden, count });
  // The interval starts again after every slide change, manual or not.
  // biome-ignore lint/correctness/useExhaustiveDependencies: state.index is the trigger (see above).
  useEffect(() => {
    if (!running) return;
    const timer = window.setTimeout(() => dispatch({ type: "tick" }), intervalMs);
    return () => window.clearTimeout(timer);
  }, [running, state.index, intervalMs]);

  const holdProps = autoplay
    ? {
        onMouseEnter: () => setHovered(true),
        onMouseLeave: () => setHovered(false),
        onFocus: () => setFocused(true),
        onBlur: (event: FocusEvent<HTMLElement>) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
        },
      }
    : {};

  return { state, dispatch, running, holdProps };
}

// ---------------------------------------------------------------------------------------------
// Scrolling

/** Deep links such as /#gallery (the footer uses them) scroll to the section once it exists. */
export function useHashScroll() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const id = decodeURIComponent(hash.slice(1));
    // Next frame: the section renders in the same commit, but let layout settle first.
    const frame = window.requestAnimationFrame(() => scrollToSection(id));
    return () => window.cancelAnimationFrame(frame);
  }, [hash]);
}

/**
 * Writes the scroll progress (0..1) of the first `range` pixels into a CSS custom property of
 * the element, once per frame, without re-rendering React. Nothing runs under reduced motion.
 */
export function useScrollProgressVar(
  ref: RefObject<HTMLElement | null>,
  property: string,
  range: number,
  enabled: boolean,
) {
  // Layout effect: the first value is in place before the first paint.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (!enabled) {
      element.style.removeProperty(property);
      return;
    }
    let frame = 0;
    const write = () => {
      frame = 0;
      element.style.setProperty(property, tileProgress(window.scrollY, range).toFixed(4));
    };
    const onScroll = () => {
      if (frame === 0) frame = window.requestAnimationFrame(write);
    };
    write();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("scroll", onScroll);
      if (frame !== 0) window.cancelAnimationFrame(frame);
    };
  }, [ref, property, range, enabled]);
}

/** A stable click handler for in-page links: plain clicks scroll, modified clicks stay native. */
export function useSectionLink(id: string) {
  return useCallback(
    (event: {
      preventDefault(): void;
      button: number;
      metaKey: boolean;
      ctrlKey: boolean;
      shiftKey: boolean;
      altKey: boolean;
    }) => {
      if (!isPlainClick(event)) return;
      event.preventDefault();
      scrollToSection(id);
    },
    [id],
  );
}
