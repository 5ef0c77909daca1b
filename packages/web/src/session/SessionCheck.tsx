import { useEffect } from "react";
import toast from "react-hot-toast";
import { api } from "../api";
import { ApiError } from "../api/errors";
import { credentialStore } from "./credentialStore";
import { useSession } from "./hooks";
import { toSessionUser } from "./sessionUser";

/**
 * Confirms a restored session with the server once per user: an expired or revoked token is
 * signed out now (the client clears it on the 401) instead of at the user's first action, and
 * a name changed elsewhere reaches the menu. A plain call, not a cached query: signing out
 * clears the query cache, which would swallow the very error this reports.
 */
export function SessionCheck() {
  const userId = useSession()?.user.id ?? null;

  useEffect(() => {
    if (userId === null) return;
    let current = true;
    api.profile.getProfile().then(
      (profile) => {
        const session = credentialStore.getSession();
        if (!current || !session || session.user.id !== profile.id) return;
        const fresh = toSessionUser(profile);
        if (JSON.stringify(fresh) !== JSON.stringify(session.user)) credentialStore.save(session.token, fresh);
      },
      (error: unknown) => {
        // Reported even after unmount: the 401 that ends the session also re-renders this away.
        // The fixed id keeps it to one toast. Other failures (offline, 5xx) keep the session.
        if (error instanceof ApiError && error.kind === "session-expired") {
          toast.error(error.message, { id: "session-expired" });
        }
      },
    );
    return () => {
      current = false;
    };
  }, [userId]);

  return null;
}
