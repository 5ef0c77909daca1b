import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from "react";
import type { AuthMode } from "./authMode";
import { AuthModalContext, loadAuthDialog } from "./authModalContext";

// The forms and their validation (zod) load on first open, keeping them out of the landing bundle.
const AuthDialog = lazy(loadAuthDialog);

export function AuthModalProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<AuthMode | null>(null);
  const openAuthModal = useCallback((next: AuthMode) => setMode(next), []);
  const closeAuthModal = useCallback(() => setMode(null), []);
  const controls = useMemo(() => ({ openAuthModal, closeAuthModal }), [openAuthModal, closeAuthModal]);

  return (
    <AuthModalContext.Provider value={controls}>
      {children}
      {mode && (
        <Suspense fallback={null}>
          <AuthDialog mode={mode} onModeChange={setMode} onClose={closeAuthModal} />
        </Suspense>
      )}
    </AuthModalContext.Provider>
  );
}
