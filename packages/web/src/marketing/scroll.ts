/** In-page scrolling shared by the marketing sections and the footer (no React, no dependencies). */

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

export function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && !!window.matchMedia && window.matchMedia(REDUCED_MOTION).matches;
}

/**
 * Scrolls a section to the top of the viewport (under the fixed header, via its scroll-margin),
 * smoothly unless the visitor prefers reduced motion, and moves keyboard focus to it (to its
 * [data-section-focus] heading when it has one) so the next Tab continues from there.
 */
export function scrollToSection(id: string): boolean {
  const target = document.getElementById(id);
  if (!target) return false;
  target.scrollIntoView({ behavior: prefersReducedMotion() ? "auto" : "smooth", block: "start" });
  const focusTarget = target.querySelector<HTMLElement>("[data-section-focus]") ?? target;
  if (!focusTarget.hasAttribute("tabindex")) focusTarget.setAttribute("tabindex", "-1");
  focusTarget.focus({ preventScroll: true });
  return true;
}

/** A plain left click, as opposed to one that opens a new tab or window. */
export function isPlainClick(event: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
