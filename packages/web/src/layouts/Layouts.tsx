import { Suspense } from "react";
import { Outlet } from "react-router-dom";
import { Footer } from "../components/Footer";
import { TopNav } from "../components/nav/TopNav";
import { PageLoading } from "../components/PageLoading";
import { SkipLink } from "./SkipLink";

function Screen() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
}

/** Header and footer around the screen. The top padding clears the fixed header. */
export function StandardLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <TopNav />
      {/* At least a screen tall, so the footer never starts in view and jumps when a lazy screen arrives. */}
      <main id="main" tabIndex={-1} className="min-h-screen flex-1 pt-16 outline-none">
        <Screen />
      </main>
      <Footer />
    </div>
  );
}

/** Header only (/landing). */
export function HeaderOnlyLayout() {
  return (
    <div className="min-h-screen">
      <SkipLink />
      <TopNav />
      <main id="main" tabIndex={-1} className="pt-16 outline-none">
        <Screen />
      </main>
    </div>
  );
}

/** No chrome at all (/payments): the screen owns the whole page. */
export function BareLayout() {
  return (
    <main id="main" tabIndex={-1} className="min-h-screen outline-none">
      <Screen />
    </main>
  );
}
