import { useState, type FormEvent } from "react";
import type { AuthResult } from "../api/auth";
import { credentialStore } from "../session/credentialStore";
import { greetingName } from "../session/sessionUser";
import { notify } from "../toast/notify";
import { submitWithToasts } from "./submit";
import type { Validated } from "./validation";

interface AuthFormOptions<Values, Body> {
  empty: Values;
  validate: (values: Values) => Validated<Body>;
  send: (body: Body) => Promise<AuthResult>;
  /** The loading toast and the fallback message of a failure without a server message. */
  toasts: { loading: string; fallback: string };
  welcome: (name: string) => string;
  /** After the session is stored and the form cleared. */
  onDone: () => void;
}

/**
 * The flow both auth forms share (docs/product/session.md#sign-in-dialog): validate first (inline error plus toast, no
 * request), then send with a loading toast, then store the session, greet, clear and close; an
 * edit of any field clears the inline error.
 */
export function useAuthForm<Values extends object, Body>(options: AuthFormOptions<Values, Body>) {
  const [values, setValues] = useState(options.empty);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const edit = (field: keyof Values) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setError(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (submitting) return;
    const checked = options.validate(values);
    if (!checked.ok) {
      setError(checked.message);
      notify.error(checked.message);
      return;
    }
    setSubmitting(true);
    const outcome = await submitWithToasts(() => options.send(checked.body), options.toasts, notify);
    setSubmitting(false);
    if (!outcome.ok) {
      setError(outcome.message);
      return;
    }
    credentialStore.save(outcome.value.token, outcome.value.user);
    notify.success(options.welcome(greetingName(outcome.value.user)));
    setValues(options.empty);
    options.onDone();
  };

  return { values, edit, error, submitting, onSubmit };
}
