/**
 * The dialog's three faces. Its own module because both the dialog and the context that loads
 * the dialog lazily need it, and neither may import the other.
 *
 * "forgot": the sign-in dialog's request for a password reset link.
 */
export type AuthMode = "login" | "register" | "forgot";
