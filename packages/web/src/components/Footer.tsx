import { useId, useState, type FormEvent, type MouseEvent, type ReactNode } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { PRODUCT_NAME } from "../constants";
import { checkNewsletterEmail, NEWSLETTER_MESSAGES } from "../marketing/newsletter";
import { isPlainClick, scrollToSection } from "../marketing/scroll";
import { notify } from "../toast/notify";
import { LogoMark } from "./icons";
import { inputClass, primaryButtonClass } from "./styles";

/**
 * The marketing footer of the standard layout (docs/product/marketing-site.md#site-footer): four
 * link columns, four social anchors, four certification badges and a newsletter box. The columns
 * are in-page anchors: home sections (/#features …) and the legal notes at the bottom of this
 * footer, plus the screens that exist. Nothing here points off-site.
 */

type FooterLink =
  | { label: string; section: string }
  | { label: string; to: string }
  | { label: string; anchor: string };

const COLUMNS: { title: string; links: FooterLink[] }[] = [
  {
    title: "Platform",
    links: [
      { label: "Features", section: "features" },
      { label: "Showcase", section: "showcase" },
      { label: "Demo gallery", section: "gallery" },
      { label: "Analytics", section: "analytics" },
    ],
  },
  {
    title: "Resources",
    links: [
      { label: "Documentation", to: "/developers/docs" },
      { label: "API Explorer", to: "/developers/api-explorer" },
      { label: "gRPC Streaming Demo", to: "/grpc-demo" },
      { label: "System Status", to: "/status" },
    ],
  },
  {
    title: "Company",
    links: [
      { label: "About the Creator", to: "/about" },
      { label: "Developer Hub", to: "/developers" },
      { label: "Why teams choose us", to: "/landing" },
      { label: "Highlights", section: "highlights" },
    ],
  },
  {
    title: "Legal",
    links: [
      { label: "Privacy", anchor: "legal-privacy" },
      { label: "Terms", anchor: "legal-terms" },
      { label: "Security", anchor: "legal-security" },
      { label: "Cookies", anchor: "legal-cookies" },
    ],
  },
];

const LEGAL_NOTES = [
  {
    id: "legal-privacy",
    title: "Privacy",
    text: "Only the account data you enter is stored, in this deployment's own database. No analytics, trackers or third-party requests.",
  },
  {
    id: "legal-terms",
    title: "Terms",
    text: "A demonstration platform: figures marked as sample data are illustrative, and no real money moves.",
  },
  {
    id: "legal-security",
    title: "Security",
    text: "Passwords are hashed with a memory-hard function; sessions use signed, expiring tokens; sign-in is rate limited.",
  },
  {
    id: "legal-cookies",
    title: "Cookies",
    text: "None. The session and your theme choice live in this browser's local storage.",
  },
];

const SOCIAL: { name: string; icon: ReactNode }[] = [
  {
    name: "GitHub",
    icon: (
      <path d="M9 19c-4.3 1.4-4.3-2.5-6-3m12 5v-3.5c0-1 .1-1.4-.5-2 2.8-.3 5.5-1.4 5.5-6a4.6 4.6 0 0 0-1.3-3.2 4.2 4.2 0 0 0-.1-3.2s-1.1-.3-3.5 1.3a12.3 12.3 0 0 0-6.2 0C6.5 2.8 5.4 3.1 5.4 3.1a4.2 4.2 0 0 0-.1 3.2A4.6 4.6 0 0 0 4 9.5c0 4.6 2.7 5.7 5.5 6-.6.6-.6 1.2-.5 2V21" />
    ),
  },
  {
    name: "LinkedIn",
    icon: (
      <path d="M16 8a6 6 0 0 1 6 6v7h-4v-7a2 2 0 0 0-4 0v7h-4v-7a6 6 0 0 1 6-6zM2 9h4v12H2zM4 2a2 2 0 1 1 0 4 2 2 0 0 1 0-4z" />
    ),
  },
  { name: "X", icon: <path d="M4 4l16 16M20 4 4 20" /> },
  {
    name: "YouTube",
    icon: (
      <path d="M22 8.5a3 3 0 0 0-2-2.1C18.2 6 12 6 12 6s-6.2 0-8 .4a3 3 0 0 0-2 2.1 31 31 0 0 0 0 7 3 3 0 0 0 2 2.1c1.8.4 8 .4 8 .4s6.2 0 8-.4a3 3 0 0 0 2-2.1 31 31 0 0 0 0-7zM10 15V9l5 3z" />
    ),
  },
];

const CERTIFICATIONS = ["SOC 2", "PCI DSS", "ISO 27001", "GDPR"];

const linkClass =
  "text-sm text-slate-600 hover:text-indigo-700 hover:underline dark:text-slate-400 dark:hover:text-indigo-300";

/** A home section link: from another page it opens /#id; on home it scrolls without a history entry. */
function SectionLink({ label, section }: { label: string; section: string }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (pathname !== "/" || !isPlainClick(event)) return;
    event.preventDefault();
    if (scrollToSection(section)) navigate({ hash: section }, { replace: true, preventScrollReset: true });
  };
  return (
    <Link to={{ pathname: "/", hash: section }} onClick={onClick} className={linkClass}>
      {label}
    </Link>
  );
}

function FooterLinkItem({ link }: { link: FooterLink }) {
  if ("section" in link) return <SectionLink {...link} />;
  if ("to" in link)
    return (
      <Link to={link.to} className={linkClass}>
        {link.label}
      </Link>
    );
  return (
    <a href={`#${link.anchor}`} className={linkClass}>
      {link.label}
    </a>
  );
}

/**
 * Newsletter box. No newsletter exists (docs/product/marketing-site.md#site-footer), so a valid
 * address gets an honest info toast and is neither sent nor stored; an invalid one an inline error.
 */
function Newsletter() {
  const id = useId();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const check = checkNewsletterEmail(email);
    if (!check.ok) {
      setError(check.message);
      event.currentTarget.querySelector("input")?.focus();
      return;
    }
    setError(null);
    setEmail("");
    notify.info(NEWSLETTER_MESSAGES.notYet);
  };
  return (
    <form onSubmit={onSubmit} noValidate className="max-w-sm">
      <label htmlFor={`${id}-email`} className="text-sm font-semibold text-slate-900 dark:text-white">
        Product updates by email
      </label>
      <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Release notes, at most once a month.
      </p>
      <div className="mt-3 flex gap-2">
        <input
          id={`${id}-email`}
          type="email"
          name="email"
          autoComplete="email"
          placeholder="you@company.com"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          className={inputClass}
        />
        <button type="submit" className={`${primaryButtonClass} shrink-0`}>
          Subscribe
        </button>
      </div>
      <p id={`${id}-error`} role="alert" className="mt-2 min-h-[1.25rem] text-sm text-red-700 dark:text-red-300">
        {error}
      </p>
    </form>
  );
}

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
        <div className="grid gap-10 lg:grid-cols-3">
          <div>
            <Link
              to="/"
              className="inline-flex items-center gap-2 rounded-lg text-lg font-bold text-slate-900 dark:text-white"
            >
              <LogoMark />
              {PRODUCT_NAME}
            </Link>
            <p className="mt-3 max-w-sm text-sm text-slate-600 dark:text-slate-400">
              Ledger, payments, KYC and developer tooling for production-ready fintech applications.
            </p>
            <ul aria-label="Social media" className="mt-5 flex gap-2">
              {SOCIAL.map((social) => (
                <li key={social.name}>
                  {/* biome-ignore lint/a11y/useValidAnchor lint/a11y/useAnchorContent: no official profiles
                      exist: anchors without a target, named by aria-label and marked disabled. */}
                  <a
                    role="link"
                    aria-disabled="true"
                    aria-label={`${social.name} (coming soon)`}
                    title={`${social.name}: coming soon`}
                    className="inline-flex h-9 w-9 cursor-not-allowed items-center justify-center rounded-lg border border-slate-300 text-slate-600 dark:border-slate-700 dark:text-slate-400"
                  >
                    <svg
                      viewBox="0 0 24 24"
                      width="18"
                      height="18"
                      fill="none"
                      stroke="currentColor"
                      strokeWidth="1.8"
                      strokeLinecap="round"
                      strokeLinejoin="round"
                      aria-hidden="true"
                      focusable="false"
                    >
                      {social.icon}
                    </svg>
                  </a>
                </li>
              ))}
            </ul>
          </div>
          <div className="grid grid-cols-2 gap-8 sm:grid-cols-4 lg:col-span-2">
            {COLUMNS.map((column) => (
              <nav key={column.title} aria-label={`${column.title} links`}>
                <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{column.title}</h2>
                <ul className="mt-3 space-y-2">
                  {column.links.map((link) => (
                    <li key={link.label}>
                      <FooterLinkItem link={link} />
                    </li>
                  ))}
                </ul>
              </nav>
            ))}
          </div>
        </div>

        <div className="mt-12 grid gap-10 border-t border-slate-200 pt-10 lg:grid-cols-2 dark:border-slate-800">
          <Newsletter />
          <div>
            <h2 className="text-sm font-semibold text-slate-900 dark:text-white">Compliance frameworks</h2>
            <ul className="mt-3 flex flex-wrap gap-2">
              {CERTIFICATIONS.map((name) => (
                <li
                  key={name}
                  className="inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-xs font-semibold text-slate-800 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-200"
                >
                  <svg
                    viewBox="0 0 24 24"
                    width="14"
                    height="14"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                    aria-hidden="true"
                    focusable="false"
                    className="text-emerald-600 dark:text-emerald-400"
                  >
                    <path d="M12 3 4.5 6v5.5c0 4.6 3.2 8.3 7.5 9.5 4.3-1.2 7.5-4.9 7.5-9.5V6z" />
                  </svg>
                  {name}
                </li>
              ))}
            </ul>
            <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
              The controls are designed around these frameworks; this build claims no audit.
            </p>
          </div>
        </div>

        <div
          id="legal"
          className="mt-10 grid gap-4 border-t border-slate-200 pt-8 text-xs text-slate-600 sm:grid-cols-2 lg:grid-cols-4 dark:border-slate-800 dark:text-slate-400"
        >
          {LEGAL_NOTES.map((note) => (
            <p key={note.id} id={note.id} className="scroll-mt-24">
              <span className="font-semibold text-slate-800 dark:text-slate-200">{note.title}. </span>
              {note.text}
            </p>
          ))}
        </div>
      </div>
      <div className="border-t border-slate-200 py-6 text-center text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400">
        © {new Date().getFullYear()} {PRODUCT_NAME}
      </div>
    </footer>
  );
}
