import { useState } from "react";
import { api } from "../api";
import { linkButtonClass, primaryButtonClass } from "../components/styles";
import { FormError } from "./FormError";
import { AUTH_UI_MESSAGES } from "./messages";
import { PasswordField } from "./PasswordField";
import { SocialButtons } from "./SocialButtons";
import { TextField } from "./TextField";
import { useAuthForm } from "./useAuthForm";
import { validateLogin, type LoginForm as LoginValues } from "./validation";

const EMPTY: LoginValues = { email: "", password: "" };

interface LoginFormProps {
  onSignedIn: () => void;
  onSwitchToRegister: () => void;
  onForgotPassword: () => void;
}

export function LoginForm({ onSignedIn, onSwitchToRegister, onForgotPassword }: LoginFormProps) {
  // Collected but never sent (docs/product/session.md#sign-in-dialog): the token always lives in localStorage.
  const [rememberMe, setRememberMe] = useState(false);
  const { values, edit, error, submitting, onSubmit } = useAuthForm({
    empty: EMPTY,
    validate: validateLogin,
    send: (body) => api.auth.login(body),
    toasts: { loading: AUTH_UI_MESSAGES.signingIn, fallback: AUTH_UI_MESSAGES.loginFallback },
    welcome: AUTH_UI_MESSAGES.welcomeBack,
    onDone: () => {
      setRememberMe(false);
      onSignedIn();
    },
  });

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-describedby={error ? "login-error" : undefined}>
      <FormError id="login-error" message={error} />
      <TextField
        id="login-email"
        label="Email"
        type="email"
        autoComplete="email"
        value={values.email}
        onValueChange={edit("email")}
        data-autofocus
      />
      <PasswordField
        id="login-password"
        label="Password"
        autoComplete="current-password"
        value={values.password}
        onValueChange={edit("password")}
      />
      <div className="flex items-center justify-between text-sm">
        <label htmlFor="login-remember" className="flex items-center gap-2 text-slate-700 dark:text-slate-200">
          <input
            id="login-remember"
            type="checkbox"
            checked={rememberMe}
            onChange={(event) => setRememberMe(event.target.checked)}
            className="h-4 w-4 rounded border-slate-400 accent-indigo-600"
          />
          Remember me
        </label>
        <button type="button" className={linkButtonClass} onClick={onForgotPassword}>
          Forgot password?
        </button>
      </div>
      <button type="submit" disabled={submitting} className={`${primaryButtonClass} w-full`}>
        {submitting ? AUTH_UI_MESSAGES.signingIn : "Sign In"}
      </button>
      <SocialButtons />
      <p className="text-center text-sm text-slate-600 dark:text-slate-300">
        Don&apos;t have an account?{" "}
        <button type="button" className={linkButtonClass} onClick={onSwitchToRegister}>
          Sign up
        </button>
      </p>
    </form>
  );
}
