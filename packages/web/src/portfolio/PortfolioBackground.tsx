import { DecorativeBackground } from "../marketing/DecorativeBackground";
import { PORTFOLIO_PARTICLE_COUNT, PORTFOLIO_PARTICLE_SEED } from "./backgroundSettings";

/**
 * The decorative background behind the whole portfolio page: the shared one of the marketing
 * heroes (gradient, moving 60 px grid, drifting shapes; hidden from assistive technology, no
 * pointer events, paused in a hidden tab, one still frame under prefers-reduced-motion) with the
 * portfolio's 40 particles. Its canvas is one viewport tall and sticks to the viewport while the
 * page scrolls, so a long page never costs a page-sized canvas; it ends where the page ends, so
 * it never paints over the footer. The parent must be `relative isolate`.
 */
export function PortfolioBackground() {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10" data-testid="portfolio-background">
      <div className="sticky top-0 h-svh">
        <DecorativeBackground count={PORTFOLIO_PARTICLE_COUNT} seed={PORTFOLIO_PARTICLE_SEED} />
      </div>
    </div>
  );
}
