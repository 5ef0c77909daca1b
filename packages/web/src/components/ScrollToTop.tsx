import { useLayoutEffect } from "react";
import { useLocation } from "react-router-dom";

/** Every route change starts at the top of the page (docs/product/session.md#app-shell). */
export function ScrollToTop() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger: each route change scrolls up.
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
