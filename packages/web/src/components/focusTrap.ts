const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

/** Elements inside `container` that Tab can reach, in document order, skipping hidden ones. */
export function focusableWithin(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => element.getClientRects().length > 0 && !element.closest("[inert]"),
  );
}

/**
 * Where Tab (or Shift+Tab) must go to keep focus inside a dialog, or null when the browser's
 * own move already stays inside. Wraps at both ends; pulls focus back in from outside.
 */
export function trappedFocusTarget<T>(items: readonly T[], current: T | null, backwards: boolean): T | null {
  if (items.length === 0) return null;
  const first = items[0] as T;
  const last = items[items.length - 1] as T;
  const index = current === null ? -1 : items.indexOf(current);
  if (index === -1) return backwards ? last : first;
  if (backwards && index === 0) return last;
  if (!backwards && index === items.length - 1) return first;
  return null;
}
