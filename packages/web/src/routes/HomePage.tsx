import { useHashScroll } from "../marketing/hooks";
import { AnalyticsShowcase } from "../marketing/home/AnalyticsShowcase";
import { DemoGallery } from "../marketing/home/DemoGallery";
import { FeaturesSection } from "../marketing/home/FeaturesSection";
import { HomeHero } from "../marketing/home/HomeHero";
import { ShowcaseCarousel } from "../marketing/home/ShowcaseCarousel";

/**
 * Home (/), spec 000 §2.5 and spec 001 "Home hero": the hero with its product tile grid, then
 * the features, the galleries with the summary tiles, and the analytics showcase. The footer
 * comes from the standard layout.
 */
export default function HomePage() {
  useHashScroll();
  return (
    <>
      <HomeHero />
      <FeaturesSection />
      <ShowcaseCarousel />
      <DemoGallery />
      <AnalyticsShowcase />
    </>
  );
}
