import { Toaster } from "react-hot-toast";
import { TOAST_DURATION_MS } from "../constants";

/** Spec 000 §9: top right; success 2 s in green, error 4 s in red (white text passes AA on both). */
export function AppToaster() {
  return (
    <Toaster
      position="top-right"
      containerStyle={{ top: 72 }}
      toastOptions={{
        style: { maxWidth: 420 },
        success: {
          duration: TOAST_DURATION_MS.success,
          style: { background: "#15803d", color: "#ffffff" },
          iconTheme: { primary: "#ffffff", secondary: "#15803d" },
        },
        error: {
          duration: TOAST_DURATION_MS.error,
          style: { background: "#b91c1c", color: "#ffffff" },
          iconTheme: { primary: "#ffffff", secondary: "#b91c1c" },
        },
      }}
    />
  );
}
