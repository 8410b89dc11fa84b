import fc from 'fast-check';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodeTga, TgaError } from '../src/image/decodeTga.js';
import { encodePng } from '../src/image/encodePng.js';

interface TgaLayout {
  /** 1 colour-mapped, 2 true-colour, 3 greyscale. */
  kind: 1 | 2 | 3;
  depth: number;
  rle: boolean;
  fromTop: boolean;
  fromRight: boolean;
  idLength: number;
}

/** An image as a TGA writer would lay it out (this test's own encoder, after the TGA 2.0 specification). */
function encodeTga(
  width: number,
  height: number,
  pixel: (x: number, y: number) => number[],
  t: TgaLayout,
): { tga: Uint8Array; rgba: Uint8Array } {
  const expected = new Uint8Array(width * height * 4);
  const palette: number[][] = [];
  const stored: number[][] = [];
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const x = t.fromRight ? width - 1 - col : col,
        y = t.fromTop ? row : height - 1 - row;
      let [r, g, b, a] = pixel(x, y) as [number, number, number, number];
      if (t.kind === 3) {
        g = r;
        b = r;
        if (t.depth === 8) a = 255;
      }
      if (t.depth === 16 && t.kind === 2) {
        [r, g, b] = [r, g, b].map((v) => ((v >> 3) << 3) | (v >> 5)) as [number, number, number];
        a = 255;
      }
      if (t.depth === 24 || t.kind === 1) a = 255;
      expected.set([r, g, b, a], (y * width + x) * 4);
      if (t.kind === 1) {
        let i = palette.findIndex((p) => p[0] === r && p[1] === g && p[2] === b);
        if (i < 0) i = palette.push([r, g, b]) - 1;
        stored.push(t.depth === 16 ? [i & 255, i >> 8] : [i]);
      } else if (t.kind === 3) stored.push(t.depth === 16 ? [r, a] : [r]);
      else if (t.depth === 16) {
        const v = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
        stored.push([v & 255, (v >> 8) | 0x80]);
      } else stored.push(t.depth === 32 ? [b, g, r, a] : [b, g, r]);
    }
  }
  // A 32-bit image with no alpha set anywhere reads as opaque (the decoder's documented rule).
  if (t.kind === 2 && t.depth === 32 && expected.every((v, i) => i % 4 !== 3 || v === 0))
    for (let i = 3; i < expected.length; i += 4) expected[i] = 255;
  const out: number[] = [
    t.idLength,
    t.kind === 1 ? 1 : 0,
    t.kind + (t.rle ? 8 : 0),
    0,
    0,
    palette.length & 255,
    palette.length >> 8,
    t.kind === 1 ? 24 : 0,
    0,
    0,
    0,
    0,
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
    t.depth,
    (t.fromTop ? 0x20 : 0) | (t.fromRight ? 0x10 : 0) | (t.depth === 32 ? 8 : 0),
  ];
  out.push(...Array.from({ length: t.idLength }, (_, i) => 65 + (i % 26)));
  for (const [r, g, b] of palette) out.push(b!, g!, r!);
  if (!t.rle) for (const p of stored) out.push(...p);
  else {
    for (let i = 0; i < stored.length; ) {
      let run = 1;
      while (run < 128 && i + run < stored.length && stored[i + run]!.join() === stored[i]!.join()) run++;
      if (run > 1) {
        out.push(0x80 | (run - 1), ...stored[i]!);
        i += run;
        continue;
      }
      let raw = 1;
      while (
        raw < 128 &&
        i + raw < stored.length &&
        (i + raw + 1 >= stored.length || stored[i + raw]!.join() !== stored[i + raw + 1]!.join())
      )
        raw++;
      out.push(raw - 1);
      for (let k = 0; k < raw; k++) out.push(...stored[i + k]!);
      i += raw;
    }
  }
  return { tga: Uint8Array.from(out), rgba: expected };
}

const layouts = fc
  .record({
    kind: fc.constantFrom<1 | 2 | 3>(1, 2, 3),
    rle: fc.boolean(),
    fromTop: fc.boolean(),
    fromRight: fc.boolean(),
    idLength: fc.nat(12),
    depthPick: fc.nat(3),
  })
  .map(
    ({ depthPick, ...t }): TgaLayout => ({
      ...t,
      depth: t.kind === 2 ? [16, 24, 32, 32][depthPick]! : t.kind === 3 ? [8, 16][depthPick % 2]! : [8, 16][depthPick % 2]!,
    }),
  );

describe('decodeTga', () => {
  it('decodes every layout TGA defines (colour-mapped, true-colour, greyscale; raw and RLE; any origin) to the pixels written', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 1, max: 24 }),
        layouts,
        fc.nat(255),
        fc.nat(3),
        (width, height, layout, seed, flat) => {
          // A few distinct colours in patches, so runs and literals both occur.
          const pixel = (x: number, y: number) => {
            const k = (Math.floor(x / (flat + 1)) * 7 + Math.floor(y / (flat + 1)) * 13 + seed) % 5;
            return [(k * 53 + seed) & 255, (k * 97) & 255, (k * 31 + 7) & 255, k === 0 ? 0 : 64 + k * 40];
          };
          const { tga, rgba } = encodeTga(width, height, pixel, layout);
          const image = decodeTga(tga);
          expect([image.width, image.height]).toEqual([width, height]);
          expect(Buffer.from(image.rgba).equals(Buffer.from(rgba))).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('reads a 32-bit image whose alpha is zero everywhere as opaque, as viewers do', () => {
    const { tga } = encodeTga(3, 2, () => [10, 20, 30, 0], {
      kind: 2,
      depth: 32,
      rle: false,
      fromTop: true,
      fromRight: false,
      idLength: 0,
    });
    const image = decodeTga(tga);
    expect(image.hasAlpha).toBe(false);
    expect(Array.from(image.rgba.subarray(0, 4))).toEqual([10, 20, 30, 255]);
  });

  it('bytes changed or cut anywhere are decoded or refused with a TgaError, never past the pixel limit', () => {
    const { tga } = encodeTga(16, 16, (x, y) => [x * 16, y * 16, 5, 255], {
      kind: 2,
      depth: 32,
      rle: true,
      fromTop: false,
      fromRight: false,
      idLength: 3,
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(tga.length - 1), fc.nat(255)), { maxLength: 6 }), fc.nat(tga.length), (edits, cut) => {
        const bytes = tga.slice(0, cut);
        for (const [at, v] of edits) if (at < bytes.length) bytes[at] = v;
        try {
          const image = decodeTga(bytes, { maxPixels: 4096 });
          expect(image.rgba.length).toBe(image.width * image.height * 4);
        } catch (err) {
          expect(err).toBeInstanceOf(TgaError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a header that claims more pixels than allowed, or than its body can hold, before allocating them', () => {
    const header = Uint8Array.from([0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 32, 0]);
    expect(() => decodeTga(header)).toThrow(/claims 65535×65535 pixels, over the 67108864-pixel limit/);
    // 8000×8000 (within the limit) from 18 bytes: raw, or run-length encoded (at most 128 pixels a packet).
    const big = Uint8Array.from([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0x1f, 0x40, 0x1f, 24, 0, 0xff, 1, 2, 3]);
    expect(() => decodeTga(big)).toThrow(/the pixel data ends early \(64000000 pixels of 24 bits claimed in 4 bytes\)/);
    big[2] = 10;
    expect(() => decodeTga(big)).toThrow(/the pixel data ends early/);
  });
});

describe('encodePng', () => {
  it('writes a PNG that a PNG decoder reads back to the same pixels (alpha kept only where it says something)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        fc.nat(1000),
        (width, height, translucent, seed) => {
          const rgba = Uint8Array.from({ length: width * height * 4 }, (_, i) =>
            i % 4 === 3 ? (translucent ? (i * 7 + seed) & 255 : 255) : (i * 31 + seed) & 255,
          );
          const hasAlpha = translucent && rgba.some((v, i) => i % 4 === 3 && v !== 255);
          const png = PNG.sync.read(Buffer.from(encodePng({ width, height, rgba, hasAlpha })));
          expect([png.width, png.height]).toEqual([width, height]);
          expect(Buffer.from(png.data).equals(Buffer.from(rgba))).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});
