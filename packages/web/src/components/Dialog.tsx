import { useRef, type KeyboardEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { handleModalKey, useModalFocus } from "./modal";

interface DialogProps {
  /** id of the element that names the dialog (its heading). */
  labelledBy: string;
  describedBy?: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal dialog: focus moves in on open (to the first [data-autofocus] element, else the first
 * focusable one), Tab and Shift+Tab cycle inside, Escape and a backdrop click close it, and
 * focus returns to whatever had it before.
 */
export function Dialog({ labelledBy, describedBy, onClose, children }: DialogProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  useModalFocus(panelRef);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => handleModalKey(event, panelRef.current, onClose);

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop press is a pointer shortcut; Escape closes too.
    <div
      className="fixed inset-0 z-[60] flex items-start justify-center overflow-y-auto bg-slate-950/70 p-4 backdrop-blur-sm sm:items-center"
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
        onKeyDown={onKeyDown}
        className="relative my-8 w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 text-slate-900 shadow-2xl outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        {children}
      </div>
    </div>,
    document.body,
  );
}
