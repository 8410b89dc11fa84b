import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AR_BUDGET_DEFAULTS } from '@arsession/convert';
import { budgetShares } from '../src/session/budgetShares.js';
import { sessionLevels } from '../src/records/sessionLevels.js';

describe('budgetShares', () => {
  it('one model has the whole budget; several of unknown elements share it by bytes, none below a quarter of an equal share', () => {
    expect(budgetShares(AR_BUDGET_DEFAULTS, [{ bytes: 5 }])).toEqual([AR_BUDGET_DEFAULTS]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 31 }), { minLength: 2, maxLength: 40 }), (sizes) => {
        const shares = budgetShares(
          AR_BUDGET_DEFAULTS,
          sizes.map((bytes) => ({ bytes })),
        );
        const sum = (key: 'triangles' | 'meshPrims' | 'packageBytes') => shares.reduce((n, s) => n + s[key], 0);
        // What a device loads together stays within the budget (a prim each at least).
        expect(sum('triangles')).toBeLessThanOrEqual(AR_BUDGET_DEFAULTS.triangles);
        expect(sum('packageBytes')).toBeLessThanOrEqual(AR_BUDGET_DEFAULTS.packageBytes);
        expect(sum('meshPrims')).toBeLessThanOrEqual(Math.max(AR_BUDGET_DEFAULTS.meshPrims, sizes.length));
        for (const s of shares) {
          expect(s.textureSize).toBe(AR_BUDGET_DEFAULTS.textureSize);
          expect(s.triangles).toBeGreaterThanOrEqual(Math.floor(AR_BUDGET_DEFAULTS.triangles / (4 * sizes.length) / 1.25) - 1);
        }
        // A larger upload never gets less.
        sizes.forEach((a, i) =>
          sizes.forEach((b, j) => a > b && expect(shares[i]!.triangles).toBeGreaterThanOrEqual(shares[j]!.triangles)),
        );
      }),
    );
  });

  it("each model is owed a box's triangles for each element first, the rest by bytes; what a device loads stays within the budget", () => {
    const { triangles } = AR_BUDGET_DEFAULTS;
    const upload = fc.record({ bytes: fc.integer({ min: 0, max: 2 ** 31 }), elements: fc.option(fc.nat(20_000), { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(upload, { minLength: 2, maxLength: 40 }), (uploads) => {
        const shares = budgetShares(AR_BUDGET_DEFAULTS, uploads);
        const sum = (key: 'triangles' | 'meshPrims' | 'packageBytes') => shares.reduce((n, s) => n + s[key], 0);
        expect(sum('triangles')).toBeLessThanOrEqual(triangles);
        expect(sum('packageBytes')).toBeLessThanOrEqual(AR_BUDGET_DEFAULTS.packageBytes);
        expect(sum('meshPrims')).toBeLessThanOrEqual(Math.max(AR_BUDGET_DEFAULTS.meshPrims, uploads.length));
        const owed = uploads.map((u) => (u.elements === undefined ? triangles / (4 * uploads.length) : 12 * u.elements));
        const owedSum = owed.reduce((n, o) => n + o, 0);
        // One triangle each first. Then, owed no more than is left, each gets what it is owed; owed
        // more, each its part of what is left.
        const left = triangles - uploads.length;
        shares.forEach((s, i) => {
          expect(s.triangles).toBeGreaterThanOrEqual(1);
          expect(s.triangles).toBeGreaterThanOrEqual(Math.floor(owedSum <= left ? owed[i]! : (left * owed[i]!) / owedSum));
        });
        // Between two models owed alike, the larger upload never gets less.
        uploads.forEach((a, i) =>
          uploads.forEach(
            (b, j) => owed[i] === owed[j] && a.bytes > b.bytes && expect(shares[i]!.triangles).toBeGreaterThanOrEqual(shares[j]!.triangles),
          ),
        );
      }),
    );
  });

  it('a model owed nothing still has a triangle, and the shares stay within the budget', () => {
    for (const uploads of [
      [{ bytes: 0, elements: 0 }, { bytes: 1 }],
      [{ bytes: 0, elements: 0 }, { bytes: 0, elements: 0 }, { bytes: 0 }, { bytes: 0, elements: 7813 }],
      [...Array.from({ length: 39 }, () => ({ bytes: 0, elements: 0 })), { bytes: 1, elements: 20_000 }],
    ]) {
      const shares = budgetShares(AR_BUDGET_DEFAULTS, uploads).map((s) => s.triangles);
      expect(Math.min(...shares)).toBeGreaterThanOrEqual(1);
      expect(shares.reduce((n, t) => n + t, 0)).toBeLessThanOrEqual(AR_BUDGET_DEFAULTS.triangles);
    }
  });

  it('gives each of 29 models at least half an equal share of the prims, however few its triangles', () => {
    // A federation: 28 masonry and floor models of 2 MB and a 100 kB balcony model of 40 elements.
    const uploads = [...Array.from({ length: 28 }, () => ({ bytes: 2e6, elements: 400 })), { bytes: 1e5, elements: 40 }];
    const shares = budgetShares(AR_BUDGET_DEFAULTS, uploads);
    const balcony = shares.at(-1)!;
    expect(balcony.meshPrims).toBeGreaterThanOrEqual(Math.floor(AR_BUDGET_DEFAULTS.meshPrims / 2 / 29));
    expect(balcony.triangles).toBeLessThan(shares[0]!.triangles);
    expect(shares.reduce((n, s) => n + s.meshPrims, 0)).toBeLessThanOrEqual(AR_BUDGET_DEFAULTS.meshPrims);
  });

  it('keeps a model of many small elements whole beside a large file of few', () => {
    // A masonry model of 5000 blocks in 100 kB, and a 3 MB model of 40 detailed elements.
    const [detailed, masonry] = budgetShares(AR_BUDGET_DEFAULTS, [
      { bytes: 3e6, elements: 40 },
      { bytes: 1e5, elements: 5000 },
    ]);
    expect(masonry!.triangles).toBeGreaterThanOrEqual(5000 * 12);
    expect(detailed!.triangles + masonry!.triangles).toBeLessThanOrEqual(100_000);
    // What is not owed (100,000 − 60,480) goes by bytes: nearly all of it to the 3 MB file.
    expect(detailed!.triangles).toBeGreaterThan(0.9 * (100_000 - 60_480));
    expect(masonry!.meshPrims).toBeGreaterThan(detailed!.meshPrims);
  });
});

describe('sessionLevels', () => {
  it('storeys of several models are one level where their elevations agree, numbered bottom up', () => {
    const architecture = [
      { name: 'EG', elevation_m: 0 },
      { name: 'OG', elevation_m: 3 },
    ];
    const structure = [
      { name: 'Level 0', elevation_m: 0.02 },
      { name: 'Level 1', elevation_m: 2.98 },
      { name: 'Basement', elevation_m: -3 },
    ];
    const services = [{ name: 'Roof', elevation_m: null }, null];
    expect(sessionLevels([architecture, structure, services])).toEqual([
      [1, 2],
      [1, 2, 0],
      [3, null],
    ]);
  });

  it('every part with a storey has a level; levels are dense from 0 and follow elevation', () => {
    const storey = fc.option(
      fc.record({ name: fc.constantFrom('A', 'B', 'C'), elevation_m: fc.option(fc.double({ min: -20, max: 60, noNaN: true })) }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(storey, { maxLength: 8 }), { maxLength: 6 }), (assets) => {
        const levels = sessionLevels(assets);
        const all: Array<[number | null, { name: string; elevation_m: number | null } | null]> = assets.flatMap((parts, a) =>
          parts.map((s, i) => [levels[a]![i]!, s] as [number | null, typeof s]),
        );
        for (const [level, s] of all) expect(level === null).toBe(s === null);
        const used = [...new Set(all.flatMap(([l]) => (l === null ? [] : [l])))].sort((x, y) => x - y);
        expect(used).toEqual(used.map((_, i) => i));
        // A higher elevation never has a lower level.
        for (const [la, a] of all)
          for (const [lb, b] of all)
            if (a?.elevation_m != null && b?.elevation_m != null && a.elevation_m < b.elevation_m) expect(la!).toBeLessThanOrEqual(lb!);
      }),
    );
  });
});
