import toast from "react-hot-toast";

/** The toast calls the app makes; the auth flow takes this interface so tests can record them. */
export interface Notifier {
  loading(message: string): string;
  dismiss(id: string): void;
  success(message: string): void;
  error(message: string): void;
  info(message: string): void;
}

export const notify: Notifier = {
  loading: (message) => toast.loading(message),
  dismiss: (id) => toast.dismiss(id),
  success: (message) => void toast.success(message),
  error: (message) => void toast.error(message),
  info: (message) => void toast(message, { icon: "ℹ️" }),
};
