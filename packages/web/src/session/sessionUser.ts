/**
 * The signed-in user as the SPA keeps it (docs/product/session.md#session-user), camel-cased from
 * the server's fields.
 */
export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
}

/** User fields as the API sends them; only id and email are always present. */
export interface ServerUserFields {
  id: string | number;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  role?: string | null;
}

export function toSessionUser(user: ServerUserFields): SessionUser {
  return {
    id: String(user.id),
    email: user.email,
    firstName: user.first_name ?? "",
    lastName: user.last_name ?? "",
    role: user.role ?? "user",
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Reads a stored user back; anything malformed (old format, hand-edited) counts as no user. */
export function parseStoredUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { id, email, firstName, lastName, role } = value;
  if (typeof id !== "string" || !id || typeof email !== "string" || !email) return null;
  return {
    id,
    email,
    firstName: typeof firstName === "string" ? firstName : "",
    lastName: typeof lastName === "string" ? lastName : "",
    role: typeof role === "string" && role ? role : "user",
  };
}

/** Full name for menus; the email when the user gave no name. */
export function displayName(user: SessionUser): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

/** The name toasts greet with ('User' when there is no first name, docs/product/session.md#sign-in-dialog). */
export function greetingName(user: SessionUser): string {
  return user.firstName.trim() || "User";
}

export function initials(user: SessionUser): string {
  const letters = `${user.firstName.trim().charAt(0)}${user.lastName.trim().charAt(0)}`;
  return (letters || user.email.charAt(0)).toUpperCase();
}
