import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { ContactIcon } from "./icons";
import type { PortfolioContact } from "./portfolioSeed";
import { portfolioCallToAction } from "./portfolioSeed";
import { panelClass, sectionLeadClass, sectionTitleClass } from "./styles";

/**
 * docs/product/portfolio.md#call-to-action: the closing call to action; Get in Touch writes an
 * email, View Resume opens the PDF.
 */
export function CallToAction({ contact }: { contact: PortfolioContact }) {
  return (
    <section aria-labelledby="about-cta-title" className={`${panelClass} text-center`} data-testid="about-cta">
      <h2 id="about-cta-title" className={sectionTitleClass}>
        {portfolioCallToAction.title}
      </h2>
      <p className={`${sectionLeadClass} mx-auto max-w-2xl`}>{portfolioCallToAction.text}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <a href={`mailto:${contact.email}`} className={`${primaryButtonClass} h-11 px-5`}>
          <ContactIcon name="mail" />
          {portfolioCallToAction.getInTouch}
        </a>
        <a
          href={contact.resume.href}
          target="_blank"
          rel="noopener noreferrer"
          type="application/pdf"
          className={`${secondaryButtonClass} h-11 px-5`}
        >
          <ContactIcon name="paper" />
          {portfolioCallToAction.viewResume}
          <span className="sr-only"> (PDF, opens in a new tab)</span>
        </a>
      </div>
    </section>
  );
}
