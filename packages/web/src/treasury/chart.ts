/**
 * The rate-history chart's geometry: points of a line through the rates (oldest first) scaled to
 * a box, and the range it spans. Rates are decimal strings; the chart only places them, so a
 * float is fine here (no figure is computed from it).
 */
export interface ChartPoint {
  x: number;
  y: number;
}

export function linePoints(values: readonly string[], width: number, height: number, pad = 4): ChartPoint[] {
  const numbers = values.map(Number);
  if (numbers.length === 0) return [];
  const low = Math.min(...numbers);
  const high = Math.max(...numbers);
  const span = high - low || 1;
  const step = numbers.length > 1 ? (width - 2 * pad) / (numbers.length - 1) : 0;
  return numbers.map((value, index) => ({
    x: numbers.length > 1 ? pad + index * step : width / 2,
    y: high === low ? height / 2 : pad + ((high - value) / span) * (height - 2 * pad),
  }));
}

export const pointsAttribute = (points: readonly ChartPoint[]) =>
  points.map((point) => `${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(" ");
