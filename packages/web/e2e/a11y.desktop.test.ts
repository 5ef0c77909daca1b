import { sweepAccessibility } from "./a11y-sweep";

/** axe on every route of the SPA's route table at 1280 px, light and dark (see a11y-sweep.ts). */
sweepAccessibility("desktop");
