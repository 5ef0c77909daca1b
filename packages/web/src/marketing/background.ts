import { seededRandom } from "./chart";

/**
 * The decorative background of docs/product/marketing-site.md#decorative-background (its figures in
 * docs/product/marketing-site.md#constants): drifting shapes that wrap at the edges with an
 * oscillating opacity, over a slowly moving grid. Pure functions; DecorativeBackground.tsx draws
 * them.
 */

export type ShapeKind = "circle" | "square" | "diamond" | "hexagon";
const KINDS: readonly ShapeKind[] = ["circle", "square", "diamond", "hexagon"];

export interface Particle {
  id: number;
  x: number;
  y: number;
  /** Direction of travel in radians. */
  angle: number;
  /** Pixels per second. */
  speed: number;
  size: number;
  /** Base opacity; the drawn value oscillates around it. */
  opacity: number;
  /** Phase of the opacity oscillation, radians. */
  phase: number;
  type: ShapeKind;
}

export const GRID_CELL_PX = 60;
export const OPACITY_MIN = 0.1;
export const OPACITY_MAX = 0.7;

export function createParticles(count: number, width: number, height: number, seed = 7): Particle[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, id) => ({
    id,
    x: random() * width,
    y: random() * height,
    angle: random() * Math.PI * 2,
    speed: 4 + random() * 10,
    size: 6 + random() * 16,
    opacity: 0.15 + random() * 0.35,
    phase: random() * Math.PI * 2,
    type: KINDS[Math.floor(random() * KINDS.length)] ?? "circle",
  }));
}

/** Position after `dt` seconds, wrapping around the edges (a shape leaves fully before it re-enters). */
export function advance(particle: Particle, dt: number, width: number, height: number): Particle {
  const margin = particle.size;
  const wrap = (value: number, max: number) => {
    const span = max + margin * 2;
    return ((((value + margin) % span) + span) % span) - margin;
  };
  return {
    ...particle,
    x: wrap(particle.x + Math.cos(particle.angle) * particle.speed * dt, width),
    y: wrap(particle.y + Math.sin(particle.angle) * particle.speed * dt, height),
  };
}

/** Opacity at time t (seconds): a slow oscillation around the base, clamped to 0.1..0.7. */
export function opacityAt(particle: Particle, t: number): number {
  const value = particle.opacity + Math.sin(t * 0.6 + particle.phase) * 0.15;
  return Math.min(OPACITY_MAX, Math.max(OPACITY_MIN, value));
}

/** The grid's offset at time t: it drifts diagonally and repeats every cell. */
export function gridOffset(t: number, pxPerSecond = 6): number {
  const offset = (t * pxPerSecond) % GRID_CELL_PX;
  return offset < 0 ? offset + GRID_CELL_PX : offset;
}
