import type { ReactNode } from "react";

interface PlaceholderScreenProps {
  title: string;
  /** The product in words, as it starts the sentence "… is coming soon", e.g. "Identity verification". */
  product: string;
  /** What the screen will let people do, one or two sentences. */
  willDo: string;
  children?: ReactNode;
}

/**
 * A titled stand-in for a screen that is not built yet. It says, in product words, what is coming;
 * the route table marks the route as not live (routeTable `live`), so marketing copy never calls it live.
 */
export function PlaceholderScreen({ title, product, willDo, children }: PlaceholderScreenProps) {
  return (
    <section aria-labelledby="placeholder-title" className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
      <p className="inline-flex rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-amber-900 dark:bg-amber-400/15 dark:text-amber-200">
        Coming soon
      </p>
      <h1
        id="placeholder-title"
        className="mt-4 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white"
      >
        {title}
      </h1>
      <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">
        {product} is coming soon: {willDo}
      </p>
      {children}
    </section>
  );
}
