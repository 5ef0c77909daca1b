import { AxeBuilder } from "@axe-core/playwright";
import type { Result } from "axe-core";
import type { Page } from "playwright-core";
import { waitForAnimationsFinished } from "./settle";

/** The impacts that fail a page: axe's "serious" and "critical" (WCAG failures users hit). */
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

/**
 * axe's serious and critical violations on the still page. A toast comes and goes on its own
 * timer, so on a busy machine its fade can run while axe measures, and a half-transparent toast
 * fails colour contrast although the toast at rest passes: a page with violations is measured
 * again (up to twice) once its animations have finished. A real violation is there every time.
 */
export async function blockingViolations(page: Page): Promise<Result[]> {
  let violations = await violationsNow(page);
  for (let round = 2; violations.length > 0 && round <= 3; round += 1) {
    await waitForAnimationsFinished(page);
    violations = await violationsNow(page);
  }
  return violations;
}

/** axe's serious and critical violations on the page as it is now: axe's default rules plus one (below). */
async function violationsNow(page: Page): Promise<Result[]> {
  // label-content-name-mismatch (WCAG 2.5.3, a control's name contains its visible text) is
  // "experimental" in axe and off by default; speech users depend on it, so it runs here.
  // Legacy mode runs axe.run in the page itself. The default mode runs axe per frame and then
  // finishes the run in a fresh blank page, which costs time on every check; the SPA has no
  // cross-origin frames, which is all that mode adds.
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
    .analyze();
  return results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ""));
}

/** One line per offending element: rule id, impact, target, and the first line of axe's summary. */
export function formatViolations(violations: readonly Result[]): string {
  return violations
    .flatMap((violation) =>
      violation.nodes.map((node) => {
        const summary = (node.failureSummary ?? violation.help)
          .split("\n")
          .filter((line) => line.trim() !== "")
          .slice(0, 2)
          .join(" ")
          .trim();
        return `${violation.id} (${node.impact ?? violation.impact}) ${node.target.join(" ")}: ${summary}`;
      }),
    )
    .join("\n");
}
