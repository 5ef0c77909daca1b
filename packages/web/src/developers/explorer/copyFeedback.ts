/** How long the copy button shows its check mark (docs/product/developer-tools.md#api-explorer). */
export const COPY_CONFIRMATION_MS = 2000;

export interface CopyFeedback {
  /** The copy worked: show the check, and reset it COPY_CONFIRMATION_MS after the LAST copy. */
  confirm(): void;
  dispose(): void;
}

/** The check mark's timing, apart from React so a unit test can drive it with fake timers. */
export function createCopyFeedback(onChange: (copied: boolean) => void, resetMs = COPY_CONFIRMATION_MS): CopyFeedback {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const clear = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return {
    confirm() {
      clear();
      onChange(true);
      timer = setTimeout(() => {
        timer = null;
        onChange(false);
      }, resetMs);
    },
    dispose: clear,
  };
}
