import { useHashScroll } from "../marketing/hooks";
import { AnalyticsShowcase } from "../marketing/home/AnalyticsShowcase";
import { DemoGallery } from "../marketing/home/DemoGallery";
import { FeaturesSection } from "../marketing/home/FeaturesSection";
import { HomeHero } from "../marketing/home/HomeHero";
import { ShowcaseCarousel } from "../marketing/home/ShowcaseCarousel";

/**
 * Home (/) of docs/product/marketing-site.md#home-page: the hero with its product tile grid
 * (docs/product/marketing-site.md#product-tiles), then the features, the galleries with the summary
 * tiles, and the analytics showcase. The footer comes from the standard layout.
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
