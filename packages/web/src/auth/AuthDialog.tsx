import { useEffect, useRef } from "react";
import { CloseIcon } from "../components/icons";
import { Dialog } from "../components/Dialog";
import { iconButtonClass } from "../components/styles";
import type { AuthMode } from "./authMode";
import { ForgotPasswordForm } from "./ForgotPasswordForm";
import { LoginForm } from "./LoginForm";
import { RegisterForm } from "./RegisterForm";

interface AuthDialogProps {
  mode: AuthMode;
  onModeChange: (mode: AuthMode) => void;
  onClose: () => void;
}

const COPY: Record<AuthMode, { title: string; subtitle: string }> = {
  login: { title: "Welcome back", subtitle: "Sign in to your account to continue." },
  register: { title: "Create your account", subtitle: "Start building on the platform in minutes." },
  forgot: { title: "Reset your password", subtitle: "We will email you a link to choose a new one." },
};

/** One dialog for both forms, so switching between them keeps focus handling and the opener. */
export default function AuthDialog({ mode, onModeChange, onClose }: AuthDialogProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Switching forms unmounts the focused link; put focus on the new form's first field.
  // biome-ignore lint/correctness/useExhaustiveDependencies: mode is the trigger: it runs after each form switch.
  useEffect(() => {
    headingRef.current?.closest("[role=dialog]")?.querySelector<HTMLElement>("[data-autofocus]")?.focus();
  }, [mode]);

  return (
    <Dialog labelledBy="auth-dialog-title" describedBy="auth-dialog-subtitle" onClose={onClose}>
      <button
        type="button"
        onClick={onClose}
        aria-label="Close dialog"
        className={`${iconButtonClass} absolute right-3 top-3`}
      >
        <CloseIcon />
      </button>
      <h2 ref={headingRef} id="auth-dialog-title" className="pr-10 text-2xl font-bold">
        {COPY[mode].title}
      </h2>
      <p id="auth-dialog-subtitle" className="mb-5 mt-1 text-sm text-slate-600 dark:text-slate-300">
        {COPY[mode].subtitle}
      </p>
      {mode === "login" ? (
        <LoginForm
          key="login"
          onSignedIn={onClose}
          onSwitchToRegister={() => onModeChange("register")}
          onForgotPassword={() => onModeChange("forgot")}
        />
      ) : mode === "forgot" ? (
        <ForgotPasswordForm key="forgot" onBackToLogin={() => onModeChange("login")} />
      ) : (
        <RegisterForm key="register" onRegistered={onClose} onSwitchToLogin={() => onModeChange("login")} />
      )}
    </Dialog>
  );
}
