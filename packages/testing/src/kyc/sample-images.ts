import { crc32, deflateSync } from "node:zlib";
import sharp, { type Sharp } from "sharp";

/**
 * Generated document-like pictures for tests (and the seed data): an ID card photographed on a
 * desk, drawn with SVG shapes so no font or fixture file is needed. Each seed gives a different
 * layout (different pHash); the same seed gives the same picture. The variants are the cases the
 * image checks must tell apart: sharp, blurred, washed out, glare, tiny; and a decompression
 * bomb for the pixel budget.
 */

export interface SampleImageOptions {
  /** Picks the layout: different seeds are different documents. */
  seed?: number;
  width?: number;
  height?: number;
  format?: "png" | "jpeg";
}

/** A small deterministic PRNG (mulberry32), so a seed always draws the same document. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The SVG of a card on a darker desk: a header band, a portrait block, and lines of "text" bars. */
export function documentSvg({ seed = 1, width = 1200, height = 800 }: SampleImageOptions = {}): string {
  const next = random(seed);
  const shapes: string[] = [];
  // No two photos frame a card alike: where it lies and how much of the frame it fills vary.
  const scale = 0.8 + next() * 0.12;
  const card = {
    x: width * (1 - scale) * next(),
    y: height * (1 - scale) * next(),
    w: width * scale,
    h: height * scale,
  };
  shapes.push(`<rect width="${width}" height="${height}" fill="rgb(92,84,76)"/>`);
  shapes.push(
    `<rect x="${card.x}" y="${card.y}" width="${card.w}" height="${card.h}" rx="24" fill="rgb(226,222,210)"/>`,
  );
  const hue = Math.floor(next() * 360);
  shapes.push(
    `<rect x="${card.x}" y="${card.y}" width="${card.w}" height="${card.h * 0.14}" rx="24" fill="hsl(${hue},45%,38%)"/>`,
  );
  // The portrait sits left or right depending on the seed, which moves most of the image's energy.
  const portraitLeft = next() < 0.5;
  const portrait = { w: card.w * 0.26, h: card.h * 0.58 };
  const portraitX = portraitLeft ? card.x + card.w * 0.04 : card.x + card.w * 0.7;
  const portraitY = card.y + card.h * 0.22;
  shapes.push(
    `<rect x="${portraitX}" y="${portraitY}" width="${portrait.w}" height="${portrait.h}" fill="rgb(${60 + Math.floor(next() * 80)},70,90)"/>`,
  );
  shapes.push(
    `<ellipse cx="${portraitX + portrait.w / 2}" cy="${portraitY + portrait.h * 0.38}" rx="${portrait.w * 0.28}" ry="${portrait.h * 0.22}" fill="rgb(200,160,130)"/>`,
  );
  const textX = portraitLeft ? portraitX + portrait.w + card.w * 0.04 : card.x + card.w * 0.05;
  const textWidth = card.w * 0.6;
  const lineHeight = card.h * 0.06;
  for (let line = 0; line < 9; line++) {
    let x = textX;
    const y = portraitY + line * lineHeight * 1.45;
    const end = textX + textWidth * (0.5 + next() * 0.5);
    while (x < end) {
      const word = Math.max(8, next() * width * 0.06);
      shapes.push(
        `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.min(word, end - x).toFixed(1)}" height="${(lineHeight * 0.7).toFixed(1)}" fill="rgb(25,25,35)"/>`,
      );
      x += word + width * 0.012;
    }
  }
  // A machine-readable-zone look: two rows of small glyph-like blocks along the bottom.
  for (let row = 0; row < 2; row++) {
    for (let glyph = 0; glyph < 36; glyph++) {
      if (next() < 0.2) continue;
      const gx = card.x + card.w * 0.04 + glyph * card.w * 0.0255;
      const gy = card.y + card.h * (0.84 + row * 0.07);
      shapes.push(
        `<rect x="${gx.toFixed(1)}" y="${gy.toFixed(1)}" width="${(card.w * 0.016).toFixed(1)}" height="${(card.h * 0.045).toFixed(1)}" fill="rgb(30,30,30)"/>`,
      );
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes.join("")}</svg>`;
}

function encode(image: Sharp, format: "png" | "jpeg"): Promise<Buffer> {
  return format === "png" ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
}

/** A sharp, evenly lit document photo: passes every image check. */
export function sampleDocumentImage(options: SampleImageOptions = {}): Promise<Buffer> {
  return encode(sharp(Buffer.from(documentSvg(options))), options.format ?? "png");
}

/** The same document out of focus (Gaussian blur). */
export function blurredDocumentImage(options: SampleImageOptions = {}, sigma = 6): Promise<Buffer> {
  return encode(sharp(Buffer.from(documentSvg(options))).blur(sigma), options.format ?? "png");
}

/** The same document overexposed: every tone squeezed into the top of the range. */
export function washedOutDocumentImage(options: SampleImageOptions = {}): Promise<Buffer> {
  return encode(sharp(Buffer.from(documentSvg(options))).linear(0.18, 212), options.format ?? "png");
}

/** The same document with a large blown-out reflection across it. */
export async function glareDocumentImage(options: SampleImageOptions = {}): Promise<Buffer> {
  const width = options.width ?? 1200;
  const height = options.height ?? 800;
  const flare = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><ellipse cx="${width * 0.5}" cy="${height * 0.5}" rx="${width * 0.5}" ry="${height * 0.48}" fill="white"/></svg>`;
  return encode(
    sharp(Buffer.from(documentSvg(options))).composite([{ input: Buffer.from(flare) }]),
    options.format ?? "png",
  );
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A decompression bomb: a valid PNG whose header declares `width` x `height` pixels (100 MP by
 * default) while the file stays small (black, 1 bit per pixel, so the deflated rows are tiny).
 * Built by hand, not by an encoder: no encoder is asked to hold 100 MP, and the bytes are exactly
 * what an attacker would send. A decoder that believed the header would fill every pixel.
 */
export function decompressionBombPng(width = 10_000, height = 10_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  // Bit depth 1, colour type 0 (greyscale), deflate, adaptive filtering, no interlace.
  header.set([1, 0, 0, 0, 0], 8);
  // Every row: filter byte 0, then ceil(width / 8) zero bytes.
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
