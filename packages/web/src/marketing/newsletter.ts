/**
 * The footer's newsletter box (docs/product/marketing-site.md#site-footer). No newsletter exists,
 * so the address is checked and the visitor is told plainly that nothing is sent or stored; no
 * request is made.
 */

export const NEWSLETTER_MESSAGES = {
  empty: "Enter your email address.",
  invalid: "Enter a valid email address, like name@example.com.",
  notYet: "Thanks! Newsletters are not sent yet, so your address was not stored.",
} as const;

// One @, no spaces, a dot in the domain with something either side: what type=email accepts,
// minus dotless hosts, which cannot receive mail from the internet.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export type NewsletterCheck = { ok: true; email: string } | { ok: false; message: string };

export function checkNewsletterEmail(input: string): NewsletterCheck {
  const email = input.trim();
  if (email === "") return { ok: false, message: NEWSLETTER_MESSAGES.empty };
  if (email.length > 254 || !EMAIL.test(email)) return { ok: false, message: NEWSLETTER_MESSAGES.invalid };
  return { ok: true, email };
}
