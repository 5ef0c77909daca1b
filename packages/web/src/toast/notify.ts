import toast from "react-hot-toast";
import { toastIdFor } from "./policy";

/** The toast calls the app makes; the auth flow takes this interface so tests can record them. */
export interface Notifier {
  loading(message: string): string;
  dismiss(id: string): void;
  success(message: string): void;
  error(message: string): void;
  info(message: string): void;
}

/** The same message raised again replaces the one shown (ids from toastIdFor) rather than stacking. */
export const notify: Notifier = {
  loading: (message) => toast.loading(message),
  dismiss: (id) => toast.dismiss(id),
  success: (message) => void toast.success(message, { id: toastIdFor("success", message) }),
  error: (message) => void toast.error(message, { id: toastIdFor("error", message) }),
  info: (message) => void toast(message, { icon: "ℹ️", id: toastIdFor("info", message) }),
};

export type ToastKind = "success" | "error" | "warning" | "info";

/** A toast with its own duration (a toast of docs/product/session.md#toasts: type, message, duration). */
export interface ToastSpec {
  kind: ToastKind;
  message: string;
  /** Absent: the kind's default (success 2 s, error 4 s, others 4 s). */
  durationMs?: number;
  /**
   * A toast raised again with the same id replaces the first instead of stacking; by default the id
   * follows the kind and message.
   */
  id?: string;
}

/** Amber with white text: 7:1, readable in both themes, and unlike success (green) or error (red). */
const WARNING_STYLE = { background: "#92400e", color: "#ffffff" } as const;

export function showToast({ kind, message, durationMs, id }: ToastSpec): void {
  const options = { duration: durationMs, id: id ?? toastIdFor(kind, message) };
  if (kind === "success") toast.success(message, options);
  else if (kind === "error") toast.error(message, options);
  else if (kind === "warning") toast(message, { ...options, icon: "⚠️", style: WARNING_STYLE });
  else toast(message, { ...options, icon: "ℹ️" });
}
