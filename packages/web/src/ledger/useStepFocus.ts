import { useEffect, useRef } from "react";

/**
 * Moves focus to a wizard's step heading whenever the step changes (not on the first render,
 * where the sub-view's title takes focus), so keyboard and screen-reader users land on the new step.
 */
export function useStepFocus<T extends HTMLElement>(step: number) {
  const ref = useRef<T>(null);
  const previous = useRef(step);
  useEffect(() => {
    if (previous.current === step) return;
    previous.current = step;
    ref.current?.focus();
  }, [step]);
  return ref;
}
