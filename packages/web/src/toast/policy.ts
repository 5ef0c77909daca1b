/**
 * How many toasts the screen shows at once, and which ones go when more arrive: a pure function
 * over react-hot-toast's store, so the rule is tested without a browser and holds for every
 * caller, including code that calls react-hot-toast directly.
 */

/** At most this many toasts are visible; a burst (a bulk approve) never covers the menus. */
export const MAX_VISIBLE_TOASTS = 3;

/** The fixed id of 'Please log in to access this page'; signing in dismisses it. */
export const LOGIN_REQUIRED_TOAST_ID = "login-required";

/** The fields of a react-hot-toast toast this policy reads. */
export interface ToastEntry {
  id: string;
  type: string;
  visible: boolean;
  createdAt: number;
  /** Text, or a render function / element (never compared). */
  message: unknown;
}

/**
 * The id a toast gets when its caller gives none: the same kind and text always map to the same
 * id, so raising a message that is already shown replaces it (and restarts its timer) instead of
 * stacking a copy.
 */
export function toastIdFor(kind: string, message: string): string {
  return `${kind}:${message}`;
}

/**
 * The toasts to dismiss: every visible one that repeats a newer visible toast (same type and
 * text), then, of the rest, the oldest beyond `limit`. Newest first wins; dismissed ones are
 * already leaving and do not count.
 */
export function toastsToDismiss(toasts: readonly ToastEntry[], limit: number = MAX_VISIBLE_TOASTS): string[] {
  const newestFirst = toasts.filter((entry) => entry.visible).sort((a, b) => b.createdAt - a.createdAt);
  const seen = new Set<string>();
  const kept: ToastEntry[] = [];
  const dismissed: string[] = [];
  for (const entry of newestFirst) {
    const text = typeof entry.message === "string" ? `${entry.type}\u0000${entry.message}` : null;
    if (text !== null && seen.has(text)) {
      dismissed.push(entry.id);
      continue;
    }
    if (text !== null) seen.add(text);
    kept.push(entry);
  }
  const cap = Math.max(0, Math.trunc(limit));
  for (const entry of kept.slice(cap)) dismissed.push(entry.id);
  return dismissed;
}
