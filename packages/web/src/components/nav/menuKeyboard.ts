/**
 * The item index a key moves to inside a menu (WAI-ARIA menu pattern): arrows wrap, Home and
 * End jump to the ends. Null for keys the menu does not handle.
 */
export function menuKeyTarget(key: string, current: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return current < 0 ? 0 : (current + 1) % count;
    case "ArrowUp":
      return current < 0 ? count - 1 : (current - 1 + count) % count;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}
