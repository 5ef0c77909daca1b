/**
 * Wording of the auth modals (docs/product/session.md#sign-in-dialog,
 * docs/product/session.md#messages). Validation messages come from core's model.
 */
export const AUTH_UI_MESSAGES = {
  signingIn: "Signing in...",
  creatingAccount: "Creating your account...",
  loginFallback: "Login failed. Please try again.",
  registerFallback: "Registration failed. Please try again.",
  loginRequired: "Please login to access this feature",
  welcomeBack: (name: string) => `Welcome back, ${name}!`,
  welcome: (name: string) => `Welcome, ${name}!`,
  goodbye: (name: string) => `Goodbye, ${name}! See you soon!`,
} as const;
