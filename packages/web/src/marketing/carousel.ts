/**
 * Carousel state, shared by the auto-advancing showcase and the demo gallery
 * (docs/product/marketing-site.md#showcase-carousel): which slide is shown and whether the visitor
 * wants it to advance on its own.
 */

export interface CarouselState {
  index: number;
  count: number;
  /** The visitor's choice (the play/pause button). Hover and focus hold it without changing it. */
  playing: boolean;
}

export type CarouselAction =
  | { type: "next" }
  | { type: "prev" }
  | { type: "go"; index: number }
  /** The autoplay timer fired: advances only while playing. */
  | { type: "tick" }
  | { type: "toggle" }
  | { type: "pause" };

/** i modulo count, also for negative i: previous of the first slide is the last one. */
export function wrapIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return ((Math.trunc(index) % count) + count) % count;
}

export function initialCarousel(count: number, playing: boolean): CarouselState {
  return { index: 0, count, playing };
}

export function carouselReducer(state: CarouselState, action: CarouselAction): CarouselState {
  switch (action.type) {
    case "next":
      return { ...state, index: wrapIndex(state.index + 1, state.count) };
    case "prev":
      return { ...state, index: wrapIndex(state.index - 1, state.count) };
    case "go": {
      const index = wrapIndex(action.index, state.count);
      return index === state.index ? state : { ...state, index };
    }
    case "tick":
      return state.playing ? { ...state, index: wrapIndex(state.index + 1, state.count) } : state;
    case "toggle":
      return { ...state, playing: !state.playing };
    case "pause":
      return state.playing ? { ...state, playing: false } : state;
  }
}

export interface AutoplayConditions {
  playing: boolean;
  /** Pointer over the carousel or keyboard focus inside it (WAI-ARIA carousel pattern). */
  held: boolean;
  /** The tab is in the background. */
  hidden: boolean;
  count: number;
}

/** Whether the autoplay timer should run right now. */
export function autoplayRunning({ playing, held, hidden, count }: AutoplayConditions): boolean {
  return playing && !held && !hidden && count > 1;
}

/**
 * The tab a key press moves to in a horizontal tablist (automatic activation):
 * ArrowRight/ArrowLeft wrap, Home/End jump to the ends; null for any other key.
 */
export function tabKeyTarget(key: string, index: number, count: number): number | null {
  switch (key) {
    case "ArrowRight":
      return wrapIndex(index + 1, count);
    case "ArrowLeft":
      return wrapIndex(index - 1, count);
    case "Home":
      return 0;
    case "End":
      return Math.max(0, count - 1);
    default:
      return null;
  }
}
