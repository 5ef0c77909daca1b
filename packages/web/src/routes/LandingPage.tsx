import { LandingBlocks } from "../marketing/landing/LandingBlocks";
import { LandingFooter } from "../marketing/landing/LandingFooter";
import { LandingHero } from "../marketing/landing/LandingHero";

/**
 * Landing (/landing), header-only layout (spec 000 §2.1, spec 001 "Landing page"): hero with the
 * stats, the six marketing blocks, and the page's own footer with inert links.
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
