import { useEffect } from "react";
import toast, { Toaster, useToasterStore } from "react-hot-toast";
import { NARROW_SCREEN_QUERY, useMediaQuery } from "../components/useMediaQuery";
import { TOAST_DURATION_MS } from "../constants";
import { useSession } from "../session/hooks";
import { LOGIN_REQUIRED_TOAST_ID, toastsToDismiss } from "./policy";

/** Clears the fixed 64 px header on wide screens. */
const TOP_OFFSET_PX = 72;
const BOTTOM_OFFSET_PX = 16;

/**
 * Holds every toast to the policy (policy.ts: at most three visible, one of each message),
 * whoever raised it, and closes the login-required toast once a session exists.
 */
function ToastPolicy() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    for (const id of toastsToDismiss(toasts)) toast.dismiss(id);
  }, [toasts]);

  const signedIn = useSession() !== null;
  useEffect(() => {
    if (signedIn) toast.dismiss(LOGIN_REQUIRED_TOAST_ID);
  }, [signedIn]);
  return null;
}

/**
 * docs/product/session.md#toasts: success 2 s in green, error 4 s in red (white text passes AA on
 * both), at the top right, which is where they go on wide screens. On a phone the top is where
 * dialogs start (the login dialog the guard opens with its own toast), so there they come up from
 * the bottom, clear of the dialog's heading and first fields.
 */
export function AppToaster() {
  const narrow = useMediaQuery(NARROW_SCREEN_QUERY);
  return (
    <>
      <ToastPolicy />
      <Toaster
        position={narrow ? "bottom-center" : "top-right"}
        containerStyle={narrow ? { bottom: BOTTOM_OFFSET_PX } : { top: TOP_OFFSET_PX }}
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
    </>
  );
}
