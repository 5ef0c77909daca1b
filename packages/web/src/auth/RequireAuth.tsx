import { useEffect } from "react";
import toast from "react-hot-toast";
import { Link, Outlet, useLocation } from "react-router-dom";
import { LockIcon } from "../components/icons";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { TOAST_DURATION_MS } from "../constants";
import { useSession } from "../session/hooks";
import { LOGIN_REQUIRED_TOAST_ID } from "../toast/policy";
import { useAuthModal } from "./authModalContext";
import { AUTH_UI_MESSAGES } from "./messages";

/** Guard of the signed-in screens: the screen for a user, the 'Authentication Required' page otherwise. */
export function RequireAuth() {
  const session = useSession();
  const { pathname } = useLocation();
  // Keyed by path: each guarded screen visited while signed out asks again.
  return session ? <Outlet /> : <AuthenticationRequired key={pathname} />;
}

function AuthenticationRequired() {
  const { openAuthModal } = useAuthModal();

  useEffect(() => {
    // A fixed id keeps one toast even when the effect runs twice (StrictMode, quick navigation).
    toast.error(AUTH_UI_MESSAGES.loginRequired, {
      id: LOGIN_REQUIRED_TOAST_ID,
      duration: TOAST_DURATION_MS.loginRequired,
    });
    openAuthModal("login");
  }, [openAuthModal]);

  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center">
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
        <LockIcon width="28" height="28" />
      </span>
      <h1 className="mt-6 text-3xl font-bold text-slate-900 dark:text-white">Authentication Required</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        Please sign in or create an account to access this feature.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <button type="button" className={primaryButtonClass} onClick={() => openAuthModal("login")}>
          Sign In
        </button>
        <button type="button" className={secondaryButtonClass} onClick={() => openAuthModal("register")}>
          Create Account
        </button>
        <Link to="/" className={secondaryButtonClass}>
          Back to Home
        </Link>
      </div>
    </section>
  );
}
