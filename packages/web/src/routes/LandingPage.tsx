import { LandingBlocks } from "../marketing/landing/LandingBlocks";
import { LandingFooter } from "../marketing/landing/LandingFooter";
import { LandingHero } from "../marketing/landing/LandingHero";

/**
 * Landing (/landing), header-only layout (docs/product/marketing-site.md#landing-page): hero with
 * the stats, the six marketing blocks, and the page's own footer strip (links to built screens,
 * plain text for the rest).
 */
export default function LandingPage() {
  return (
    <>
      <LandingHero />
      <LandingBlocks />
      <LandingFooter />
    </>
  );
}
