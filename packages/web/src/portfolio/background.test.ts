import { describe, expect, it } from "vitest";
import {
  advance,
  createParticles,
  gridOffset,
  GRID_CELL_PX,
  opacityAt,
  OPACITY_MAX,
  OPACITY_MIN,
} from "../marketing/background";
import { PORTFOLIO_PARTICLE_COUNT, PORTFOLIO_PARTICLE_SEED } from "./backgroundSettings";
import { timelineSide } from "./timeline";

/**
 * The portfolio draws the shared decorative background (marketing/background.ts) with the
 * portfolio's figures from docs/product/portfolio.md#constants. Stepped by hand at 30 frames a
 * second, never on the wall clock.
 */
describe("the portfolio background", () => {
  const width = 1280;
  const height = 800;

  it("has 40 particles of the four shapes over a 60 px grid", () => {
    const particles = createParticles(PORTFOLIO_PARTICLE_COUNT, width, height, PORTFOLIO_PARTICLE_SEED);
    expect(particles).toHaveLength(40);
    expect(new Set(particles.map((p) => p.type))).toEqual(new Set(["circle", "square", "diamond", "hexagon"]));
    expect(GRID_CELL_PX).toBe(60);
    expect(gridOffset(12.5, 6)).toBe(15);
  });

  it("keeps every particle on (or just past) the screen and its opacity within 0.1..0.7 for five minutes", () => {
    let particles = createParticles(PORTFOLIO_PARTICLE_COUNT, width, height, PORTFOLIO_PARTICLE_SEED);
    const dt = 1 / 30;
    const start = particles.map((p) => ({ x: p.x, y: p.y }));
    const outOfBounds: string[] = [];
    for (let frame = 1; frame <= 30 * 300; frame += 1) {
      particles = particles.map((p) => advance(p, dt, width, height));
      const t = frame * dt;
      for (const p of particles) {
        const inside = p.x >= -p.size && p.x < width + p.size && p.y >= -p.size && p.y < height + p.size;
        const opacity = opacityAt(p, t);
        if (!inside || opacity < OPACITY_MIN || opacity > OPACITY_MAX)
          outOfBounds.push(`frame ${frame} particle ${p.id}: (${p.x}, ${p.y}) opacity ${opacity}`);
      }
    }
    expect(outOfBounds.slice(0, 5)).toEqual([]);
    // They drift: after five minutes every particle has moved.
    particles.forEach((p, i) => {
      expect(Math.hypot(p.x - start[i]!.x, p.y - start[i]!.y)).toBeGreaterThan(0);
    });
  });

  it("the opacity really oscillates (not stuck at a bound)", () => {
    const [p] = createParticles(1, width, height, PORTFOLIO_PARTICLE_SEED);
    const seen = Array.from({ length: 200 }, (_, i) => opacityAt(p!, i * 0.1));
    expect(Math.max(...seen) - Math.min(...seen)).toBeGreaterThan(0.1);
  });
});

describe("timelineSide", () => {
  it("alternates left and right by index, starting left", () => {
    expect([0, 1, 2, 3].map(timelineSide)).toEqual(["left", "right", "left", "right"]);
  });
});
