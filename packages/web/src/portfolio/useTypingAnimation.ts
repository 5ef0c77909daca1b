import { useEffect, useRef, useState } from "react";
import { useDocumentHidden, useReducedMotion } from "../marketing/hooks";
import { stillTypingFrame, typingFrame, type TypingFrame } from "./typing";

/**
 * Runs the typing animation of typing.ts on real time: one timer, set for the next change only
 * (a character, the restart or the cursor), so nothing wakes up in between. The clock stops while
 * the tab is hidden and picks up where it was; under prefers-reduced-motion there is no timer at
 * all and the whole snippet shows at once.
 */
export function useTypingAnimation(length: number): TypingFrame {
  const reducedMotion = useReducedMotion();
  const hidden = useDocumentHidden();
  // Visible running time so far; survives the pauses of a hidden tab.
  const elapsedRef = useRef(0);
  const [frame, setFrame] = useState(() => typingFrame(0, length));

  useEffect(() => {
    if (reducedMotion || hidden) return;
    let last = performance.now();
    let timer = 0;
    const show = () => {
      const now = performance.now();
      elapsedRef.current += now - last;
      last = now;
      const next = typingFrame(elapsedRef.current, length);
      setFrame(next);
      timer = window.setTimeout(show, next.msUntilChange);
    };
    show();
    return () => {
      window.clearTimeout(timer);
      elapsedRef.current += performance.now() - last;
    };
  }, [reducedMotion, hidden, length]);

  return reducedMotion ? stillTypingFrame(length) : frame;
}
