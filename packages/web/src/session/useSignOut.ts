import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { AUTH_UI_MESSAGES } from "../auth/messages";
import { notify } from "../toast/notify";
import { credentialStore } from "./credentialStore";
import { greetingName } from "./sessionUser";

/** Sign Out: say goodbye, drop token and user (App then drops cached replies), leave guarded screens. */
export function useSignOut(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const session = credentialStore.getSession();
    if (session) notify.success(AUTH_UI_MESSAGES.goodbye(greetingName(session.user)));
    credentialStore.clear();
    navigate("/");
  }, [navigate]);
}
