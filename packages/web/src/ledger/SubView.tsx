import { useEffect, useRef, type ReactNode } from "react";
import { CloseIcon } from "../components/icons";
import { iconButtonClass } from "../components/styles";
import { cardClass } from "./ui";

interface SubViewProps {
  id: string;
  title: string;
  description?: string;
  onClose: () => void;
  closeLabel: string;
  children: ReactNode;
}

/** The panel of a sub-view (connect account, transfer, deposit); its heading takes focus on open. */
export function SubView({ id, title, description, onClose, closeLabel, children }: SubViewProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <section aria-labelledby={`${id}-title`} className={`${cardClass} p-5 sm:p-6`}>
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2
            id={`${id}-title`}
            ref={headingRef}
            tabIndex={-1}
            className="text-xl font-bold text-slate-900 outline-none dark:text-white"
          >
            {title}
          </h2>
          {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>}
        </div>
        <button type="button" className={iconButtonClass} onClick={onClose} aria-label={closeLabel}>
          <CloseIcon />
        </button>
      </div>
      <div className="mt-5">{children}</div>
    </section>
  );
}
