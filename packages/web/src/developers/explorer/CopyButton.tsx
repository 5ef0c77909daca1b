import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { iconButtonClass } from "../../components/styles";
import { createCopyFeedback, type CopyFeedback } from "./copyFeedback";
import { CheckIcon, CopyIcon } from "./icons";

/**
 * Copies `text`: the toast "Code copied to clipboard!" (docs/product/developer-tools.md#messages)
 * and a check mark in place of the copy icon for 2 s. `data-copied` exposes the check to tests.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const feedback = useRef<CopyFeedback | null>(null);
  useEffect(() => {
    const controller = createCopyFeedback(setCopied);
    feedback.current = controller;
    return () => controller.dispose();
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success("Code copied to clipboard!");
      feedback.current?.confirm();
    } catch {
      toast.error("Could not copy: select the text and copy it");
    }
  };

  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      data-copied={copied}
      onClick={() => void copy()}
      className={iconButtonClass}
    >
      {copied ? <CheckIcon className="text-emerald-700 dark:text-emerald-300" /> : <CopyIcon />}
    </button>
  );
}
