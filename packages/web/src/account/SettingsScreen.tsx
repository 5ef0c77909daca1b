import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { Link, useLocation } from "react-router-dom";
import { AUTH_MESSAGES, PasswordChangeInput, ProfileUpdateInput } from "@fintech/core/auth/model";
import { api } from "../api";
import type { ApiKey } from "../api/apiKeys";
import type { UserProfile } from "../api/profile";
import { PasswordField } from "../auth/PasswordField";
import { TextField } from "../auth/TextField";
import { linkButtonClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { useApiKeys } from "../developers/apiKeys/hooks";
import { RevokeKeyDialog } from "../developers/apiKeys/RevokeKeyDialog";
import { writeErrorMessage } from "../ledger/actionErrors";
import { formatDateTime } from "../ledger/format";
import { cardClass, errorTextClass, LoadError, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { credentialStore } from "../session/credentialStore";
import { useSession } from "../session/hooks";
import { toSessionUser } from "../session/sessionUser";
import { accountApi } from "./accountApi";
import { ChangeEmailForm, useProfile } from "./ChangeEmailForm";

/** The sections of /settings, in order; the user menu links to them by their ids. */
export const SETTINGS_SECTIONS = [
  { id: "profile", title: "Profile" },
  { id: "email", title: "Sign-in email" },
  { id: "password", title: "Password" },
  { id: "sessions", title: "Active sessions" },
  { id: "api-keys", title: "API keys" },
] as const;

const successClass =
  "rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-100";

function Section({
  id,
  title,
  intro,
  children,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={`mt-6 scroll-mt-24 ${cardClass}`}>
      <h2 id={`${id}-title`} className={sectionTitleClass}>
        {title}
      </h2>
      {intro && <p className={`mt-2 ${subtleTextClass}`}>{intro}</p>}
      {children}
    </section>
  );
}

function Outcome({ done, failure }: { done: string | null; failure: string | null }) {
  return (
    <>
      <div role="status" aria-live="polite">
        {done && <p className={successClass}>{done}</p>}
      </div>
      {failure && (
        <p role="alert" className={errorTextClass}>
          {failure}
        </p>
      )}
    </>
  );
}

/** The stored session's name follows the profile, so the menu shows the new one at once. */
function rememberUser(user: UserProfile) {
  const token = credentialStore.getToken();
  if (token) credentialStore.save(token, toSessionUser(user));
}

function VerifyEmailBanner({ email }: { email: string }) {
  const resend = useMutation({ mutationFn: () => accountApi.resendVerification() });
  return (
    <div
      role="region"
      aria-label="Email verification"
      className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100"
    >
      <p className="font-semibold">Verify your email address</p>
      <p className="mt-1">
        We sent a link to <span className="break-all font-mono">{email}</span>. Until you use it, nobody can pay you by
        email.
      </p>
      <button
        type="button"
        className={`mt-3 ${secondaryButtonClass}`}
        disabled={resend.isPending || resend.isSuccess}
        onClick={() => resend.mutate()}
      >
        {resend.isPending ? <Spinner label="Sending…" /> : "Resend verification link"}
      </button>
      <div role="status" aria-live="polite" className="mt-2">
        {resend.isSuccess && resend.data}
      </div>
      {resend.isError && (
        <p role="alert" className="mt-2 font-medium">
          {writeErrorMessage(resend.error, "Could not send a new link; try again later")}
        </p>
      )}
    </div>
  );
}

function ProfileForm({ profile }: { profile: UserProfile }) {
  const client = useQueryClient();
  const [values, setValues] = useState({
    first_name: profile.first_name,
    last_name: profile.last_name,
    phone: profile.phone ?? "",
  });
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const save = useMutation({ mutationFn: (changes: ProfileUpdateInput) => api.profile.updateProfile(changes) });
  const edit = (field: keyof typeof values) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    setFailure(null);
    const parsed = ProfileUpdateInput.safeParse({ ...values, phone: values.phone.trim() || null });
    if (!parsed.success) {
      setFailure(parsed.error.issues[0]?.message ?? "Check the fields");
      return;
    }
    try {
      const user = await save.mutateAsync(parsed.data);
      rememberUser(user);
      client.setQueryData(["profile", user.id], user);
      setDone("Profile saved");
    } catch (caught) {
      setFailure(writeErrorMessage(caught, "Could not save the profile; try again"));
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="mt-3 space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          id="settings-first-name"
          label="First name"
          autoComplete="given-name"
          maxLength={100}
          value={values.first_name}
          onValueChange={edit("first_name")}
        />
        <TextField
          id="settings-last-name"
          label="Last name"
          autoComplete="family-name"
          maxLength={100}
          value={values.last_name}
          onValueChange={edit("last_name")}
        />
      </div>
      <TextField
        id="settings-phone"
        label="Phone"
        type="tel"
        autoComplete="tel"
        maxLength={32}
        optional
        value={values.phone}
        onValueChange={edit("phone")}
      />
      <button type="submit" className={primaryButtonClass} disabled={save.isPending}>
        {save.isPending ? <Spinner label="Saving…" /> : "Save profile"}
      </button>
      <Outcome done={done} failure={failure} />
    </form>
  );
}

function PasswordForm() {
  const client = useQueryClient();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (input: PasswordChangeInput) => accountApi.changePassword(input.current_password, input.new_password),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    setFailure(null);
    const parsed = PasswordChangeInput.safeParse({ current_password: current, new_password: next });
    if (!parsed.success) return setFailure(parsed.error.issues[0]?.message ?? AUTH_MESSAGES.newPasswordRequired);
    if (next !== confirm) return setFailure(AUTH_MESSAGES.passwordsDoNotMatch);
    try {
      setDone(await change.mutateAsync(parsed.data));
      setCurrent("");
      setNext("");
      setConfirm("");
      void client.invalidateQueries({ queryKey: ["sessions"] });
    } catch (caught) {
      setFailure(writeErrorMessage(caught, "Could not change the password; try again"));
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="mt-3 space-y-3">
      <PasswordField
        id="settings-current-password"
        label="Current password"
        autoComplete="current-password"
        value={current}
        onValueChange={setCurrent}
      />
      <PasswordField
        id="settings-new-password"
        label="New password"
        autoComplete="new-password"
        value={next}
        onValueChange={setNext}
      />
      <PasswordField
        id="settings-confirm-password"
        label="Confirm new password"
        autoComplete="new-password"
        value={confirm}
        onValueChange={setConfirm}
      />
      <button type="submit" className={primaryButtonClass} disabled={change.isPending}>
        {change.isPending ? <Spinner label="Changing…" /> : "Change password"}
      </button>
      <Outcome done={done} failure={failure} />
    </form>
  );
}

function SessionsList() {
  const userId = useSession()?.user.id ?? "signed-out";
  const client = useQueryClient();
  const sessions = useQuery({
    queryKey: ["sessions", userId],
    queryFn: ({ signal }) => accountApi.sessions(signal),
    enabled: userId !== "signed-out",
  });
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const act = useMutation({
    mutationFn: (target: string | "others") =>
      target === "others" ? accountApi.endOtherSessions() : accountApi.endSession(target),
    onSuccess: (message) => {
      setDone(message);
      void client.invalidateQueries({ queryKey: ["sessions"] });
    },
    onError: (caught) => setFailure(writeErrorMessage(caught, "Could not sign the session out; try again")),
  });
  const run = (target: string) => {
    setDone(null);
    setFailure(null);
    act.mutate(target);
  };

  if (sessions.isError)
    return (
      <LoadError
        message={writeErrorMessage(sessions.error, "Failed to load your sessions")}
        onRetry={() => void sessions.refetch()}
      />
    );
  if (sessions.isPending) return <Spinner label="Loading your sessions…" />;
  const others = sessions.data.filter((session) => !session.current);
  return (
    <div className="mt-3 space-y-3">
      <ul className="divide-y divide-slate-200 dark:divide-slate-700">
        {sessions.data.map((session) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <div>
              <p className="font-medium text-slate-900 dark:text-white">
                {session.device}
                {session.current && (
                  <span className="ml-2 rounded bg-indigo-100 px-1.5 py-0.5 text-xs font-semibold text-indigo-900 dark:bg-indigo-900 dark:text-indigo-100">
                    This session
                  </span>
                )}
              </p>
              <p className={subtleTextClass}>
                Signed in {formatDateTime(session.created_at)} · last seen {formatDateTime(session.last_seen_at)}
              </p>
            </div>
            {!session.current && (
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={act.isPending}
                onClick={() => run(session.id)}
                aria-label={`Sign out ${session.device}, signed in ${formatDateTime(session.created_at)}`}
              >
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={act.isPending || others.length === 0}
        onClick={() => run("others")}
      >
        Sign out all other sessions
      </button>
      <Outcome done={done} failure={failure} />
    </div>
  );
}

function ActiveApiKeys() {
  const keys = useApiKeys();
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [done, setDone] = useState<string | null>(null);
  if (keys.isError)
    return (
      <LoadError
        message={writeErrorMessage(keys.error, "Failed to load your API keys")}
        onRetry={() => void keys.refetch()}
      />
    );
  if (keys.isPending) return <Spinner label="Loading your API keys…" />;
  const active = keys.data.filter((key) => key.revoked_at === null);
  return (
    <div className="mt-3 space-y-3">
      {active.length === 0 ? (
        <p className={subtleTextClass}>No active API keys.</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-700">
          {active.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div>
                <p className="font-medium text-slate-900 dark:text-white">
                  {key.name} <span className="font-mono text-slate-600 dark:text-slate-300">{key.prefix}…</span>
                </p>
                <p className={subtleTextClass}>
                  Created {formatDateTime(key.created_at)} ·{" "}
                  {key.last_used_at ? `last used ${formatDateTime(key.last_used_at)}` : "never used"}
                </p>
              </div>
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => setRevoking(key)}
                aria-label={`Revoke API key ${key.name}`}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      <div role="status" aria-live="polite">
        {done && <p className={successClass}>{done}</p>}
      </div>
      <Link to="/developers/api-keys" className={linkButtonClass}>
        Create and manage API keys
      </Link>
      {revoking && (
        <RevokeKeyDialog
          apiKey={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={(key) => {
            setRevoking(null);
            setDone(`Revoked ${key.name}`);
          }}
        />
      )}
    </div>
  );
}

/** Scrolls to the section the address names (/settings#password), once the sections are on the page. */
function useSectionFromHash(ready: boolean) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!ready || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: "start" });
  }, [ready, hash]);
}

/** /settings: the signed-in user's account, one section per job. */
export function SettingsScreen() {
  const profile = useProfile();
  useSectionFromHash(profile.isSuccess);
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Account</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Account settings
        </h1>
        <nav aria-label="Settings sections" className="mt-3">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {SETTINGS_SECTIONS.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className={linkButtonClass}>
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {profile.isError ? (
        <div className="mt-6">
          <LoadError
            message={writeErrorMessage(profile.error, "Failed to load your profile")}
            onRetry={() => void profile.refetch()}
          />
        </div>
      ) : profile.isPending ? (
        <p className={`mt-6 ${subtleTextClass}`}>
          <Spinner label="Loading your profile…" />
        </p>
      ) : (
        <>
          {!profile.data.email_verified && <VerifyEmailBanner email={profile.data.email} />}
          <Section
            id="profile"
            title="Profile"
            intro="Your name as others see it when you pay them, and a phone number we may call you on."
          >
            <ProfileForm profile={profile.data} />
          </Section>
          <Section
            id="email"
            title="Sign-in email"
            intro={
              <>
                You sign in with <span className="break-all font-mono">{profile.data.email}</span>. A new address
                changes only when the link we send to it is used; your current address is told of the request.
              </>
            }
          >
            <ChangeEmailForm currentEmail={profile.data.email} />
          </Section>
          <Section
            id="password"
            title="Password"
            intro="Changing it signs out every other session; this one stays signed in."
          >
            <PasswordForm />
          </Section>
          <Section
            id="sessions"
            title="Active sessions"
            intro="Where you are signed in. Sign out anything you do not recognise, then change your password."
          >
            <SessionsList />
          </Section>
          <Section id="api-keys" title="API keys" intro="Keys your scripts and servers use to act for you.">
            <ActiveApiKeys />
          </Section>
        </>
      )}
    </div>
  );
}
