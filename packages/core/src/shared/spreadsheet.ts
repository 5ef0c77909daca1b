/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab / carriage return, which some strip
 * first) as a formula: such cells get a leading single quote (OWASP's CSV injection advice).
 */
export function spreadsheetSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
