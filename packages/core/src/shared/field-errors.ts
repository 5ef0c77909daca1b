/**
 * The error of a required text field for a zod schema: "is required" when it is missing, "must be
 * text" when it came as another type (an array or a number is not a missing field). Imports
 * nothing, so browser-safe schemas can use it.
 */
export const textFieldError = (label: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`;
