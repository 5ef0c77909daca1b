type SharpFactory = typeof import("sharp").default;
let loadingSharp: Promise<SharpFactory> | undefined;

/**
 * sharp (libvips, a native library) is loaded at the first picture check, not when a module that
 * uses it is imported: most requests of the functions that bundle it never check a picture, and
 * loading a native library is among the costliest parts of a cold start. A failed load is not
 * remembered, so the next check tries again.
 */
export function loadSharp(): Promise<SharpFactory> {
  loadingSharp ??= import("sharp").then(
    (module) => module.default,
    (error: unknown) => {
      loadingSharp = undefined;
      throw error;
    },
  );
  return loadingSharp;
}
