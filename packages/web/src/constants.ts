/**
 * Business constants of the shell (docs/product/session.md#constants); screens import them rather
 * than repeat numbers.
 */

export const STORAGE_KEYS = {
  authToken: "authToken",
  authUser: "authUser",
  theme: "theme",
} as const;

export const HEALTH_REFRESH_MS = 30_000;

/** The top navigation changes style once the page has scrolled further than this. */
export const NAV_SCROLL_THRESHOLD_PX = 10;

export const TOAST_DURATION_MS = {
  success: 2000,
  error: 4000,
  loginRequired: 3000,
} as const;

export const PRODUCT_NAME = "Fintech Platform";
