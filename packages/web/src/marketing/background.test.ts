import { describe, expect, it } from "vitest";
import { advance, createParticles, gridOffset, GRID_CELL_PX, opacityAt, OPACITY_MAX, OPACITY_MIN } from "./background";

describe("particles", () => {
  it("are created deterministically inside the area", () => {
    const a = createParticles(20, 800, 600, 3);
    expect(a).toEqual(createParticles(20, 800, 600, 3));
    expect(a).toHaveLength(20);
    for (const p of a) {
      expect(p.x).toBeGreaterThanOrEqual(0);
      expect(p.x).toBeLessThan(800);
      expect(p.y).toBeGreaterThanOrEqual(0);
      expect(p.y).toBeLessThan(600);
      expect(["circle", "square", "diamond", "hexagon"]).toContain(p.type);
    }
  });

  it("wrap around the edges", () => {
    const [p] = createParticles(1, 100, 100);
    const right = { ...p!, x: 100 + p!.size - 0.5, y: 50, angle: 0, speed: 10 };
    const moved = advance(right, 0.1, 100, 100);
    expect(moved.x).toBeLessThan(0);
    expect(moved.x).toBeGreaterThanOrEqual(-p!.size);
    const up = { ...p!, x: 50, y: -p!.size + 0.5, angle: -Math.PI / 2, speed: 10 };
    expect(advance(up, 0.1, 100, 100).y).toBeGreaterThan(100);
  });

  it("keep their opacity within 0.1..0.7", () => {
    for (const p of createParticles(30, 10, 10)) {
      for (let t = 0; t < 20; t += 0.37) {
        const o = opacityAt({ ...p, opacity: p.opacity * 3 }, t);
        expect(o).toBeGreaterThanOrEqual(OPACITY_MIN);
        expect(o).toBeLessThanOrEqual(OPACITY_MAX);
      }
    }
  });
});

describe("gridOffset", () => {
  it("repeats every 60 px cell", () => {
    expect(GRID_CELL_PX).toBe(60);
    expect(gridOffset(0)).toBe(0);
    expect(gridOffset(5, 6)).toBe(30);
    expect(gridOffset(10, 6)).toBe(0);
    expect(gridOffset(-1, 6)).toBe(54);
  });
});
