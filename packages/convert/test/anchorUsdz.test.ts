// Packages that place themselves in AR Quick Look: the model's layer extended with Apple's
// anchoring schema around the model, read back by our USD reader (the geometry where the placement
// puts it, every ARKit rule still kept) and by TinyUSDZ (an independent parser: the anchoring
// values and the placing transform, numerically).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchorUsdz, usdzAnchorRefusal, readGlb, readUsdz, UsdzPackageError, writeUsdz, type UsdzAnchoring } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';
import { rawZipEntries, readUsdzBack } from '../../../test/support/usdReader.js';
import { PNG_1X1 } from './support/usdzOf.js';

const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const HORIZONTAL: UsdzAnchoring = { type: 'plane', alignment: 'horizontal' };

/** A rigid transform, column-major: a rotation of `angle` about unit `axis`, then `t`. */
function rigid(axis: [number, number, number], angle: number, t: [number, number, number]): number[] {
  const [x, y, z] = axis,
    c = Math.cos(angle),
    s = Math.sin(angle),
    k = 1 - c;
  return [
    c + x * x * k,
    y * x * k + z * s,
    z * x * k - y * s,
    0,
    x * y * k - z * s,
    c + y * y * k,
    z * y * k + x * s,
    0,
    x * z * k + y * s,
    y * z * k - x * s,
    c + z * z * k,
    0,
    t[0],
    t[1],
    t[2],
    1,
  ];
}
const apply = (m: number[], p: number[]) => [0, 1, 2].map((r) => m[r]! * p[0]! + m[4 + r]! * p[1]! + m[8 + r]! * p[2]! + m[12 + r]!);

/** The box corners of bounds, moved by `m`, as new bounds. */
function movedBounds(b: { min: number[]; max: number[] }, m: number[]): { min: number[]; max: number[] } {
  const corners = [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
    apply(m, [i & 1 ? b.max[0]! : b.min[0]!, i & 2 ? b.max[1]! : b.min[1]!, i & 4 ? b.max[2]! : b.min[2]!]),
  );
  return {
    min: [0, 1, 2].map((k) => Math.min(...corners.map((c) => c[k]!))),
    max: [0, 1, 2].map((k) => Math.max(...corners.map((c) => c[k]!))),
  };
}

/** The 16 numbers of `xformOp:transform` on /Anchored/Placed, as TinyUSDZ writes the layer back. */
function placedTransform(text: string): number[] {
  const placed = text.slice(text.indexOf('"Placed"'));
  const m = /matrix4d xformOp:transform = \(([^\n]*)\)\n/.exec(placed)![1]!;
  return [...m.matchAll(/-?[\d.]+(?:e[-+]?\d+)?/gi)].map((x) => Number(x[0]));
}

const sources = {
  'a package we converted (metres)': async () => concat(writeUsdz(await readGlb(corpusBytes('glb', 'BoxTextured.glb')))),
  "Pixar's ARKit-ready package, delivered as uploaded (centimetres)": async () => corpusBytes('usdz', 'clean_clean_arkit.usdz'),
};

describe.each(Object.entries(sources))('anchorUsdz on %s', (_, source) => {
  it('places the model where modelToAnchor says, under a horizontal plane anchor, and keeps every ARKit rule', async () => {
    const usdz = await source();
    const before = await readUsdz(usdz);
    const m = rigid([0, 1, 0], 0.7, [0.4, -0.05, 1.25]);
    const anchored = concat(anchorUsdz(usdz, { anchoring: HORIZONTAL, modelToAnchor: m }));
    const after = await readUsdz(anchored);
    // Still one .usdc layer that ARKit takes as it is (the reader says so by offering it as ARKit-ready).
    expect(after.arkitPackage?.repacked).toBe(false);
    expect(after.stats.triangles).toBe(before.stats.triangles);
    const expected = movedBounds(before.bounds, m);
    after.bounds.min.forEach((v, k) => expect(v).toBeCloseTo(expected.min[k]!, 5));
    after.bounds.max.forEach((v, k) => expect(v).toBeCloseTo(expected.max[k]!, 5));
    // Every other entry is the original's, byte for byte.
    const [origEntries, newEntries] = [rawZipEntries(usdz), rawZipEntries(anchored)];
    expect(newEntries.slice(1).map((e) => [e.name, Buffer.from(e.data).toString('hex')])).toEqual(
      origEntries.slice(1).map((e) => [e.name, Buffer.from(e.data).toString('hex')]),
    );
  });

  it('TinyUSDZ reads the anchoring and the placing transform as written', async () => {
    const usdz = await source();
    const m = rigid([0, 0, 1], -0.3, [2, 0.5, -1]);
    const anchored = concat(anchorUsdz(usdz, { anchoring: { type: 'plane', alignment: 'vertical' }, modelToAnchor: m }));
    const back = await readUsdzBack(anchored);
    // TinyUSDZ's whole-package loader takes it exactly when it took the original (it cannot
    // rebuild the primvar readers of Pixar's package, anchored or not).
    expect(back.nativeUsdzAccepted).toBe((await readUsdzBack(usdz)).nativeUsdzAccepted);
    expect(back.defaultPrim).toBe('Anchored');
    expect(back.prims.find((p) => p.path === '/Anchored')?.type).toBe('Xform');
    expect(back.text).toMatch(/def Xform "Anchored"\s*\(\s*prepend apiSchemas = \["Preliminary_AnchoringAPI"\]/);
    expect(back.text).toMatch(/uniform token preliminary:anchoring:type = "plane"/);
    expect(back.text).toMatch(/uniform token preliminary:planeAnchoring:alignment = "vertical"/);
    // In the stage's units: the translation scaled by 1 / metersPerUnit, the rotation as it is.
    const mpu = back.metersPerUnit!;
    const written = placedTransform(back.text);
    written.forEach((v, i) => expect(v).toBeCloseTo([12, 13, 14].includes(i) ? m[i]! / mpu : m[i]!, 9));
    expect(back.prims.filter((p) => p.path.startsWith('/Anchored/Placed/')).length).toBeGreaterThan(0);
    // Every path inside the model (bindings, connections) moved with it.
    expect(back.text).toMatch(/<\/Anchored\/Placed\//);
    expect(back.text).not.toMatch(/<\/(?!Anchored\/)/);
  });
});

describe('anchorUsdz to a reference image', () => {
  it(
    'holds the image as an entry, a Preliminary_ReferenceImage naming ' + 'it with its width in centimetres, and the anchor pointing at it',
    async () => {
      const usdz = concat(writeUsdz(await readGlb(corpusBytes('glb', 'Box.glb'))));
      const anchored = concat(
        anchorUsdz(usdz, {
          anchoring: { type: 'image', image: { data: PNG_1X1, mimeType: 'image/png' }, physicalWidth: 0.297 },
          modelToAnchor: rigid([1, 0, 0], 0, [0, 0, 0]),
        }),
      );
      const entry = rawZipEntries(anchored).find((e) => e.name === 'reference_image.png');
      expect(Buffer.from(entry!.data).equals(PNG_1X1)).toBe(true);
      expect(entry!.dataOffset % 64).toBe(0);
      const back = await readUsdzBack(anchored);
      expect(back.prims.find((p) => p.path === '/Anchored/ReferenceImage')?.type).toBe('Preliminary_ReferenceImage');
      expect(back.text).toMatch(/uniform token preliminary:anchoring:type = "image"/);
      expect(back.text).toMatch(/rel preliminary:imageAnchoring:referenceImage = <\/Anchored\/ReferenceImage>/);
      expect(back.text).toMatch(/uniform asset image = @\.?\/?reference_image\.png@/);
      expect(Number(/uniform double physicalWidth = ([\d.]+)/.exec(back.text)![1])).toBeCloseTo(29.7, 9);
      expect((await readUsdz(anchored)).arkitPackage).toBeDefined();
    },
  );
});

describe('anchorUsdz refuses', () => {
  it('a package that anchors itself already, naming why', async () => {
    const usdz = concat(writeUsdz(await readGlb(corpusBytes('glb', 'Box.glb'))));
    const once = concat(anchorUsdz(usdz, { anchoring: HORIZONTAL, modelToAnchor: rigid([1, 0, 0], 0, [0, 0, 0]) }));
    expect(() => anchorUsdz(once, { anchoring: HORIZONTAL, modelToAnchor: rigid([1, 0, 0], 0, [0, 0, 0]) })).toThrow(UsdzPackageError);
    expect(() => anchorUsdz(once, { anchoring: HORIZONTAL, modelToAnchor: rigid([1, 0, 0], 0, [0, 0, 0]) })).toThrow(
      /anchors itself already/,
    );
  });

  it('a package whose root layer is text', async () => {
    const usdz = concat(writeUsdz(await readGlb(corpusBytes('glb', 'Box.glb')), { layerFormat: 'usda' }));
    expect(() => anchorUsdz(usdz, { anchoring: HORIZONTAL, modelToAnchor: rigid([1, 0, 0], 0, [0, 0, 0]) })).toThrow(
      /does not start with a stored \.usdc layer/,
    );
  });
});

describe('usdzAnchorRefusal', () => {
  it('says beforehand what anchorUsdz would refuse, and nothing for what it takes', async () => {
    const usdz = concat(writeUsdz(await readGlb(corpusBytes('glb', 'Box.glb'))));
    expect(usdzAnchorRefusal(usdz)).toBeUndefined();
    const anchored = concat(anchorUsdz(usdz, { anchoring: HORIZONTAL, modelToAnchor: rigid([1, 0, 0], 0, [0, 0, 0]) }));
    expect(usdzAnchorRefusal(anchored)).toMatchObject({ rule: 'anchored_already' });
    const text = concat(writeUsdz(await readGlb(corpusBytes('glb', 'Box.glb')), { layerFormat: 'usda' }));
    expect(usdzAnchorRefusal(text)).toMatchObject({ rule: 'root_layer_not_usdc' });
    // Every ARKit-ready package of the corpus: refused exactly when anchorUsdz throws.
    for (const name of [
      'clean_clean_arkit.usdz',
      'clean_clean_usdc.usdz',
      'single_usdc.usdz',
      'single_usda.usdz',
      'three-DamagedHelmet.usdz',
    ]) {
      const bytes = corpusBytes('usdz', name);
      let thrown: unknown;
      try {
        anchorUsdz(bytes, { anchoring: HORIZONTAL, modelToAnchor: rigid([1, 0, 0], 0, [0, 0, 0]) });
      } catch (err) {
        thrown = err;
      }
      expect(usdzAnchorRefusal(bytes)?.message, name).toBe((thrown as Error | undefined)?.message);
    }
  });
});

describe('anchorUsdz on any rigid placement', () => {
  it('moves the model exactly as the transform says (our reader, 40 placements)', async () => {
    const usdz = concat(writeUsdz(await readGlb(corpusBytes('glb', 'Box.glb'))));
    const before = await readUsdz(usdz);
    const unit = fc
      .tuple(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
      )
      .filter(([x, y, z]) => Math.hypot(x, y, z) > 0.1)
      .map(([x, y, z]) => {
        const l = Math.hypot(x, y, z);
        return [x / l, y / l, z / l] as [number, number, number];
      });
    const t = fc.tuple(
      fc.double({ min: -50, max: 50, noNaN: true }),
      fc.double({ min: -50, max: 50, noNaN: true }),
      fc.double({ min: -50, max: 50, noNaN: true }),
    );
    await fc.assert(
      fc.asyncProperty(unit, fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), t, async (axis, angle, move) => {
        const m = rigid(axis, angle, move);
        const after = await readUsdz(concat(anchorUsdz(usdz, { anchoring: HORIZONTAL, modelToAnchor: m })));
        const expected = movedBounds(before.bounds, m);
        after.bounds.min.forEach((v, k) => expect(v).toBeCloseTo(expected.min[k]!, 4));
        after.bounds.max.forEach((v, k) => expect(v).toBeCloseTo(expected.max[k]!, 4));
      }),
      { numRuns: 40 },
    );
  });
});
