import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { api } from "../api";
import { AUTH_UI_MESSAGES } from "../auth/messages";
import { notify } from "../toast/notify";
import { credentialStore } from "./credentialStore";
import { greetingName } from "./sessionUser";

/**
 * Sign Out: end the session on the server (so the token, and any stream opened with it, stops
 * working even where a copy of it survives), say goodbye, drop token and user (App then drops
 * cached replies), leave guarded screens. The browser signs out at once, whatever the server's
 * reply: the request takes the token as it leaves, before it is dropped here.
 */
export function useSignOut(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const session = credentialStore.getSession();
    if (session) {
      api.auth.logout().catch(() => undefined);
      notify.success(AUTH_UI_MESSAGES.goodbye(greetingName(session.user)));
    }
    credentialStore.clear();
    navigate("/");
  }, [navigate]);
}
