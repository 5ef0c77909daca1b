import { useEffect, useState, type RefObject } from "react";
import { focusableWithin, trappedFocusTarget } from "./focusTrap";

/**
 * What every modal panel (components/Dialog, rails/Drawer) does on open and close: focus moves in
 * (to the first [data-autofocus] element, else the first focusable one), the page behind stops
 * scrolling, and on close focus returns to whatever had it before.
 */
export function useModalFocus(panelRef: RefObject<HTMLElement | null>): void {
  // Read during the first render: by the time effects run, focus has already moved inside.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    const panel = panelRef.current;
    if (panel) {
      const target = panel.querySelector<HTMLElement>("[data-autofocus]") ?? focusableWithin(panel)[0] ?? panel;
      target.focus();
    }
    const { overflow } = document.body.style;
    document.body.style.overflow = "hidden";
    return () => {
      document.body.style.overflow = overflow;
      if (opener?.isConnected) opener.focus();
    };
  }, [opener, panelRef]);
}

/** Escape closes; Tab and Shift+Tab cycle inside the panel (pulled back in from outside). */
export function handleModalKey(
  event: Pick<KeyboardEvent, "key" | "shiftKey" | "preventDefault" | "stopPropagation">,
  panel: HTMLElement | null,
  onClose: () => void,
): void {
  if (event.key === "Escape") {
    event.stopPropagation();
    onClose();
    return;
  }
  if (event.key !== "Tab" || !panel) return;
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const target = trappedFocusTarget(focusableWithin(panel), active, event.shiftKey);
  if (target) {
    event.preventDefault();
    target.focus();
  }
}
