import { highlightSnippet, type TokenKind } from "./highlight";
import { useTypingAnimation } from "./useTypingAnimation";

/** Colours on the always-dark code window; each is at least 7:1 on slate-950. */
const TOKEN_CLASS: Record<TokenKind, string> = {
  keyword: "text-violet-300",
  string: "text-emerald-300",
  literal: "text-amber-300",
  property: "text-sky-300",
  plain: "text-slate-100",
};

/**
 * The code window of the hero with the typing animation of
 * docs/product/portfolio.md#typing-animation. The typed text is decoration for sighted visitors
 * (aria-hidden); screen readers get the whole snippet once, in a visually hidden copy. An invisible
 * full copy under the typed one keeps the window's size fixed while typing.
 */
export function TypedSnippet({ snippet, fileName }: { snippet: string; fileName: string }) {
  const frame = useTypingAnimation(snippet.length);
  const typed = snippet.slice(0, frame.shown);
  return (
    <figure
      className="overflow-hidden rounded-2xl border border-slate-700 bg-slate-950 shadow-xl"
      data-testid="typed-snippet-window"
    >
      <div className="flex items-center gap-2 border-b border-slate-800 px-4 py-2.5" aria-hidden="true">
        <span className="h-3 w-3 rounded-full bg-red-400" />
        <span className="h-3 w-3 rounded-full bg-amber-400" />
        <span className="h-3 w-3 rounded-full bg-emerald-400" />
      </div>
      <figcaption className="sr-only">{fileName}</figcaption>
      <pre className="sr-only">{snippet}</pre>
      <div className="grid p-4 font-mono text-[13px] leading-relaxed sm:p-5 sm:text-sm" aria-hidden="true">
        <pre className="invisible col-start-1 row-start-1 whitespace-pre-wrap break-words">{snippet} </pre>
        <pre
          className="col-start-1 row-start-1 whitespace-pre-wrap break-words"
          data-testid="typed-snippet"
          data-phase={frame.phase}
          data-shown={frame.shown}
        >
          {highlightSnippet(typed).map((token, index) => (
            <span key={index} className={TOKEN_CLASS[token.kind]}>
              {token.text}
            </span>
          ))}
          <span
            className={`ml-px inline-block h-[1.1em] w-[0.55em] translate-y-[0.2em] bg-indigo-300 ${frame.cursorVisible ? "opacity-100" : "opacity-0"}`}
            data-testid="typing-cursor"
            data-visible={frame.cursorVisible}
          />
        </pre>
      </div>
    </figure>
  );
}
