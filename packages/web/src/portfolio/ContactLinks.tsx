import type { AnchorHTMLAttributes, ReactNode } from "react";
import { ContactIcon, type ContactIconName } from "./icons";
import type { PortfolioContact } from "./portfolioSeed";

const linkClass =
  "inline-flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 " +
  "hover:border-indigo-400 hover:text-indigo-800 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:border-indigo-400 dark:hover:text-indigo-200";

const NEW_TAB = <span className="sr-only"> (opens in a new tab)</span>;

function ContactLink({
  icon,
  children,
  ...anchor
}: { icon: ContactIconName; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <li>
      <a className={linkClass} {...anchor}>
        <ContactIcon name={icon} />
        {children}
      </a>
    </li>
  );
}

/**
 * The contact links of docs/product/portfolio.md#contact-links: email, the professional network
 * profile, the resume download and the research paper. The two documents are files the SPA serves;
 * external pages open in a new tab without handing it this window (noopener noreferrer).
 */
export function ContactLinks({ contact }: { contact: PortfolioContact }) {
  return (
    <ul aria-label="Contact and documents" className="mt-6 flex flex-wrap gap-3" data-testid="contact-links">
      <ContactLink icon="mail" href={`mailto:${contact.email}`}>
        {contact.email}
      </ContactLink>
      <ContactLink icon="profile" href={contact.profile.href} target="_blank" rel="noopener noreferrer">
        {contact.profile.label}
        {NEW_TAB}
      </ContactLink>
      <ContactLink icon="download" href={contact.resume.href} download={contact.resume.fileName} type="application/pdf">
        Download resume <span className="font-normal text-slate-600 dark:text-slate-300">(PDF)</span>
      </ContactLink>
      <ContactLink
        icon="paper"
        href={contact.paper.href}
        target="_blank"
        rel="noopener noreferrer"
        type="application/pdf"
      >
        Research paper <span className="font-normal text-slate-600 dark:text-slate-300">(PDF)</span>
        {NEW_TAB}
      </ContactLink>
    </ul>
  );
}
