import { useEffect, useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { handleModalKey, useModalFocus } from "../components/modal";

interface DrawerProps {
  /** id of the element that names the drawer (its heading). */
  labelledBy: string;
  describedBy?: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal side drawer with the focus handling of components/Dialog: focus moves in on open (to
 * the first [data-autofocus] element, else the first focusable one), Tab and Shift+Tab cycle
 * inside, Escape and a press on the backdrop close it, and focus returns to the opener. It slides
 * in from the right and takes the whole width of a phone.
 */
export function Drawer({ labelledBy, describedBy, onClose, children }: DrawerProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  useModalFocus(panelRef);

  // Keys are handled on the document, not the panel: after Save is pressed the button is disabled
  // and focus falls to <body>, where Escape must still close and Tab must come back inside.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => handleModalKey(event, panelRef.current, onCloseRef.current);
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop press is a pointer shortcut; Escape closes too.
    <div
      data-testid="drawer-backdrop"
      className="fixed inset-0 z-[60] flex justify-end bg-slate-950/70 backdrop-blur-sm"
      onMouseDown={(event) => {
        // Only a press that starts on the backdrop itself closes; a text selection that ends there does not.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        className="h-full w-[calc(100%-2.5rem)] max-w-md overflow-y-auto border-l border-slate-200 bg-white p-5 text-slate-900 shadow-2xl outline-none sm:p-6 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        {children}
      </div>
    </div>,
    document.body,
  );
}
