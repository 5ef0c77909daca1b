import { PASSWORD_MIN_LENGTH } from "@fintech/core/auth/model";
import { api } from "../api";
import { linkButtonClass, primaryButtonClass } from "../components/styles";
import { FormError } from "./FormError";
import { AUTH_UI_MESSAGES } from "./messages";
import { PasswordField } from "./PasswordField";
import { SocialButtons } from "./SocialButtons";
import { TextField } from "./TextField";
import { useAuthForm } from "./useAuthForm";
import { validateRegister, type RegisterForm as RegisterValues } from "./validation";

const EMPTY: RegisterValues = {
  firstName: "",
  lastName: "",
  email: "",
  password: "",
  confirmPassword: "",
  phone: "",
  dateOfBirth: "",
};

const todayIso = () => new Date().toISOString().slice(0, 10);

interface RegisterFormProps {
  onRegistered: () => void;
  onSwitchToLogin: () => void;
}

export function RegisterForm({ onRegistered, onSwitchToLogin }: RegisterFormProps) {
  const { values, edit, error, submitting, onSubmit } = useAuthForm({
    empty: EMPTY,
    validate: validateRegister,
    send: (body) => api.auth.register(body),
    toasts: { loading: AUTH_UI_MESSAGES.creatingAccount, fallback: AUTH_UI_MESSAGES.registerFallback },
    welcome: AUTH_UI_MESSAGES.welcome,
    onDone: onRegistered,
  });

  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-describedby={error ? "register-error" : undefined}>
      <FormError id="register-error" message={error} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField
          id="register-first-name"
          label="First name"
          autoComplete="given-name"
          value={values.firstName}
          onValueChange={edit("firstName")}
          data-autofocus
        />
        <TextField
          id="register-last-name"
          label="Last name"
          autoComplete="family-name"
          value={values.lastName}
          onValueChange={edit("lastName")}
        />
      </div>
      <TextField
        id="register-email"
        label="Email"
        type="email"
        autoComplete="email"
        value={values.email}
        onValueChange={edit("email")}
      />
      <PasswordField
        id="register-password"
        label="Password"
        autoComplete="new-password"
        value={values.password}
        onValueChange={edit("password")}
        describedBy="register-password-hint"
      />
      <p id="register-password-hint" className="-mt-2 text-xs text-slate-600 dark:text-slate-400">
        At least {PASSWORD_MIN_LENGTH} characters.
      </p>
      <PasswordField
        id="register-confirm-password"
        label="Confirm password"
        autoComplete="new-password"
        value={values.confirmPassword}
        onValueChange={edit("confirmPassword")}
      />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField
          id="register-phone"
          label="Phone"
          type="tel"
          autoComplete="tel"
          optional
          value={values.phone}
          onValueChange={edit("phone")}
        />
        <TextField
          id="register-date-of-birth"
          label="Date of birth"
          type="date"
          autoComplete="bday"
          optional
          min="1900-01-01"
          max={todayIso()}
          value={values.dateOfBirth}
          onValueChange={edit("dateOfBirth")}
        />
      </div>
      <button type="submit" disabled={submitting} className={`${primaryButtonClass} w-full`}>
        {submitting ? "Creating Account..." : "Create Account"}
      </button>
      <SocialButtons />
      <p className="text-center text-sm text-slate-600 dark:text-slate-300">
        Already have an account?{" "}
        <button type="button" className={linkButtonClass} onClick={onSwitchToLogin}>
          Sign in
        </button>
      </p>
    </form>
  );
}
