/** Anchors of the home page sections (deep links such as /#gallery use them). */
export const SECTION_IDS = {
  features: "features",
  showcase: "showcase",
  gallery: "gallery",
  highlights: "highlights",
  analytics: "analytics",
} as const;
