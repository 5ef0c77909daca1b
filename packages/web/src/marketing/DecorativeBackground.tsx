import { useEffect, useRef } from "react";
import { useTheme } from "../session/hooks";
import { advance, createParticles, gridOffset, GRID_CELL_PX, opacityAt, type Particle } from "./background";
import { useReducedMotion } from "./hooks";

interface DecorativeBackgroundProps {
  /** Number of drifting shapes; a handful is enough behind a hero. */
  count?: number;
  seed?: number;
}

const FRAME_MS = 1000 / 30;

const PALETTE = {
  dark: { grid: "rgba(148, 163, 184, 0.08)", shapes: ["129, 140, 248", "167, 139, 250", "56, 189, 248"] },
  light: { grid: "rgba(71, 85, 105, 0.09)", shapes: ["79, 70, 229", "124, 58, 237", "2, 132, 199"] },
} as const;

function shapePath(ctx: CanvasRenderingContext2D, p: Particle, rotation: number) {
  const r = p.size / 2;
  ctx.beginPath();
  if (p.type === "circle") {
    ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
    return;
  }
  const sides = p.type === "hexagon" ? 6 : 4;
  const offset = p.type === "diamond" ? 0 : Math.PI / 4;
  for (let i = 0; i < sides; i += 1) {
    const a = rotation + offset + (i * Math.PI * 2) / sides;
    const x = p.x + Math.cos(a) * r;
    const y = p.y + Math.sin(a) * r;
    if (i === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  }
  ctx.closePath();
}

/**
 * docs/product/marketing-site.md#decorative-background: a gradient, a slowly moving 60 px grid and drifting shapes on
 * a canvas. Purely cosmetic: hidden from assistive technology, never takes pointer events, draws
 * at most 30 frames a second and only while on screen and the tab is visible, and under
 * prefers-reduced-motion draws a single still frame.
 */
export function DecorativeBackground({ count = 16, seed = 7 }: DecorativeBackgroundProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const particlesRef = useRef<Particle[] | null>(null);
  const reducedMotion = useReducedMotion();
  const theme = useTheme();

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx) return;
    const palette = PALETTE[theme];
    const dpr = Math.min(window.devicePixelRatio || 1, 1.5);
    let width = 0;
    let height = 0;
    let t = 0;
    let frame = 0;
    let last = 0;
    let onScreen = true;

    const draw = () => {
      ctx.clearRect(0, 0, width, height);
      // Grid
      const offset = gridOffset(t);
      ctx.strokeStyle = palette.grid;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let x = offset - GRID_CELL_PX; x < width; x += GRID_CELL_PX) {
        ctx.moveTo(Math.round(x) + 0.5, 0);
        ctx.lineTo(Math.round(x) + 0.5, height);
      }
      for (let y = offset - GRID_CELL_PX; y < height; y += GRID_CELL_PX) {
        ctx.moveTo(0, Math.round(y) + 0.5);
        ctx.lineTo(width, Math.round(y) + 0.5);
      }
      ctx.stroke();
      // Shapes
      ctx.lineWidth = 1.5;
      for (const p of particlesRef.current ?? []) {
        const rgb = palette.shapes[p.id % palette.shapes.length];
        const alpha = opacityAt(p, t);
        shapePath(ctx, p, p.phase + t * 0.15);
        ctx.fillStyle = `rgba(${rgb}, ${(alpha * 0.25).toFixed(3)})`;
        ctx.strokeStyle = `rgba(${rgb}, ${alpha.toFixed(3)})`;
        ctx.fill();
        ctx.stroke();
      }
    };

    const resize = () => {
      const rect = canvas.getBoundingClientRect();
      width = rect.width;
      height = rect.height;
      canvas.width = Math.max(1, Math.round(width * dpr));
      canvas.height = Math.max(1, Math.round(height * dpr));
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      if (!particlesRef.current && width > 0 && height > 0)
        particlesRef.current = createParticles(count, width, height, seed);
      draw();
    };

    const loop = (now: number) => {
      frame = 0;
      if (!onScreen || document.hidden) return;
      const elapsed = last === 0 ? 0 : now - last;
      if (last === 0 || elapsed >= FRAME_MS) {
        const dt = Math.min(elapsed, 100) / 1000;
        last = now;
        t += dt;
        particlesRef.current = (particlesRef.current ?? []).map((p) => advance(p, dt, width, height));
        draw();
      }
      frame = window.requestAnimationFrame(loop);
    };
    const start = () => {
      if (reducedMotion || frame !== 0 || !onScreen || document.hidden) return;
      last = 0;
      frame = window.requestAnimationFrame(loop);
    };
    const stop = () => {
      if (frame !== 0) window.cancelAnimationFrame(frame);
      frame = 0;
    };

    resize();
    const resizeObserver = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(resize);
    resizeObserver?.observe(canvas);
    const intersection =
      typeof IntersectionObserver === "undefined"
        ? null
        : new IntersectionObserver(([entry]) => {
            onScreen = entry?.isIntersecting ?? true;
            if (onScreen) start();
            else stop();
          });
    intersection?.observe(canvas);
    const onVisibility = () => (document.hidden ? stop() : start());
    document.addEventListener("visibilitychange", onVisibility);
    start();

    return () => {
      stop();
      resizeObserver?.disconnect();
      intersection?.disconnect();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [count, seed, reducedMotion, theme]);

  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0 overflow-hidden">
      <div className="absolute inset-0 bg-[radial-gradient(ellipse_80%_60%_at_50%_0%,rgba(99,102,241,0.20),transparent_70%),radial-gradient(ellipse_50%_40%_at_85%_30%,rgba(56,189,248,0.12),transparent_70%)]" />
      <canvas
        ref={canvasRef}
        className="absolute inset-0 h-full w-full [mask-image:linear-gradient(to_bottom,black_55%,transparent)]"
      />
    </div>
  );
}
