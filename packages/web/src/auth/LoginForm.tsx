import { useState, type FormEvent } from "react";
import { api } from "../api";
import { linkButtonClass, primaryButtonClass } from "../components/styles";
import { credentialStore } from "../session/credentialStore";
import { greetingName } from "../session/sessionUser";
import { notify } from "../toast/notify";
import { FormError } from "./FormError";
import { AUTH_UI_MESSAGES } from "./messages";
import { PasswordField } from "./PasswordField";
import { SocialButtons } from "./SocialButtons";
import { submitWithToasts } from "./submit";
import { TextField } from "./TextField";
import { validateLogin, type LoginForm as LoginValues } from "./validation";

const EMPTY: LoginValues = { email: "", password: "" };

interface LoginFormProps {
  onSignedIn: () => void;
  onSwitchToRegister: () => void;
}

export function LoginForm({ onSignedIn, onSwitchToRegister }: LoginFormProps) {
  const [values, setValues] = useState(EMPTY);
  // Collected but never sent (spec 000 §5): the token always lives in localStorage.
  const [rememberMe, setRememberMe] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const edit = (field: keyof LoginValues) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setError(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const checked = validateLogin(values);
    if (!checked.ok) {
      setError(checked.message);
      notify.error(checked.message);
      return;
    }
    setSubmitting(true);
    const outcome = await submitWithToasts(
      () => api.auth.login(checked.body),
      { loading: AUTH_UI_MESSAGES.signingIn, fallback: AUTH_UI_MESSAGES.loginFallback },
      notify,
    );
    setSubmitting(false);
    if (!outcome.ok) {
      setError(outcome.message);
      return;
    }
    credentialStore.save(outcome.value.token, outcome.value.user);
    notify.success(AUTH_UI_MESSAGES.welcomeBack(greetingName(outcome.value.user)));
    setValues(EMPTY);
    setRememberMe(false);
    onSignedIn();
  };

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
        <button type="button" className={linkButtonClass} onClick={() => notify.info(AUTH_UI_MESSAGES.passwordResetUnavailable)}>
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
