import { createContext, useContext } from "react";
import type { AuthMode } from "./authMode";

export interface AuthModalControls {
  openAuthModal: (mode: AuthMode) => void;
  closeAuthModal: () => void;
}

export const AuthModalContext = createContext<AuthModalControls | null>(null);

export function useAuthModal(): AuthModalControls {
  const controls = useContext(AuthModalContext);
  if (!controls) throw new Error("useAuthModal must be used inside <AuthModalProvider>");
  return controls;
}

/** Starts loading the dialog's code early (on hover or focus of a Login button). */
export const loadAuthDialog = () => import("./AuthDialog");
