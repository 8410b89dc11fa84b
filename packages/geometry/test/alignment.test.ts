import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignFrames, alignYaw, createPose, DegenerateInputError, transformPoint, type Vec3 } from '../src/index.js';
import { largestEigenpair4 } from '../src/alignment/symmetricEigen4.js';
import { angle, expectClose, vec3, yawMove } from './arbitraries.js';

// Random points plus a fixed non-collinear triple, so every cloud fixes both the yaw and the tilt.
const cloud = fc.array(vec3(5), { minLength: 0, maxLength: 10 }).map((pts): Vec3[] => [...pts, [0, 0, 0], [1, 0, 0], [0, 1, 1]]);
const wrap = (a: number) => Math.atan2(Math.sin(a), Math.cos(a));

describe('alignYaw', () => {
  it('worked example: a quarter turn about +Y and a shift', () => {
    const a = alignYaw({
      points: [
        { model: [0, 0, 0], world: [5, 0, 0] },
        { model: [1, 0, 0], world: [5, 0, -1] },
      ],
    });
    expect(a.yaw).toBeCloseTo(Math.PI / 2, 12);
    expectClose(a.pose.position, [5, 0, 0], 1e-12);
    expectClose(a.pose.rotation, [0, Math.SQRT1_2, 0, Math.SQRT1_2], 1e-12);
    expect(a.rmsResidual).toBeLessThan(1e-12);
  });

  it('recovers a random yaw and translation exactly from noise-free points', () => {
    fc.assert(
      fc.property(cloud, angle, vec3(1e4), (pts, yaw, t) => {
        const a = alignYaw({ points: pts.map((p) => ({ model: p, world: yawMove(p, yaw, t) })) });
        expect(Math.abs(wrap(a.yaw - yaw))).toBeLessThan(1e-9);
        expectClose(a.pose.position, t, 1e-9);
        expect(a.rmsResidual).toBeLessThan(1e-8);
        expect(a.diagnostics.tiltDeg!).toBeLessThan(1e-4);
        expect(a.diagnostics.scale!).toBeCloseTo(1, 9);
      }),
      { numRuns: 200 },
    );
  });

  it('degrades gracefully: 5 mm of noise on a door-sized target costs well under a degree', () => {
    const mm5 = fc.double({ min: -0.005, max: 0.005, noNaN: true });
    const noise = fc.array(fc.tuple(mm5, mm5, mm5), { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(angle, vec3(100), fc.double({ min: 0.7, max: 1.2, noNaN: true }), noise, (yaw, t, w, n) => {
        const door: Vec3[] = [
          [-w / 2, 0, 0],
          [w / 2, 0, 0],
          [w / 2, 2.1, 0],
          [-w / 2, 2.1, 0],
        ];
        const a = alignYaw({
          points: door.map((p, i) => ({ model: p, world: yawMove(p, yaw, t).map((v, k) => v + n[i]![k]!) as Vec3 })),
          directions: [{ model: [0, 0, 1], world: yawMove([0, 0, 1], yaw, [0, 0, 0]) }],
        });
        // Worst case for ±5 mm on a 0.7 m baseline is about atan(0.01/0.7) ≈ 0.8°.
        expect((Math.abs(wrap(a.yaw - yaw)) * 180) / Math.PI).toBeLessThan(1);
        expect(a.rmsResidual).toBeLessThan(0.01);
      }),
      { numRuns: 200 },
    );
  });

  it('a direction alone fixes the yaw when points are on one vertical line', () => {
    const a = alignYaw({
      points: [
        { model: [0, 0, 0], world: [1, 2, 3] },
        { model: [0, 1, 0], world: [1, 3, 3] },
      ],
      directions: [{ model: [1, 0, 0], world: [0, 0, -1] }],
    });
    expect(a.yaw).toBeCloseTo(Math.PI / 2, 12);
    expect(a.maxDirectionResidualDeg).toBeLessThan(1e-9);
  });

  it('reports mm-vs-m data as scale ≈ 1000 and tilted data as tilt, instead of applying them', () => {
    const pts: Vec3[] = [
      [0, 0, 0],
      [1, 0, 0],
      [0, 0, 1],
      [0, 2, 0],
    ];
    const mm = alignYaw({ points: pts.map((p) => ({ model: p, world: p.map((v) => v * 1000) as Vec3 })) });
    expect(mm.diagnostics.scale).toBeCloseTo(1000, 6);
    const tilt = (10 * Math.PI) / 180; // 10° about +X
    const tilted = alignYaw({
      points: pts.map((p) => ({
        model: p,
        world: [p[0], Math.cos(tilt) * p[1] - Math.sin(tilt) * p[2], Math.sin(tilt) * p[1] + Math.cos(tilt) * p[2]] as Vec3,
      })),
    });
    expect(tilted.diagnostics.tiltDeg).toBeCloseTo(10, 6);
    expect(tilted.rmsResidual).toBeGreaterThan(0.05);
  });

  it('says when the data cannot fix the tilt', () => {
    const a = alignYaw({
      points: [
        { model: [0, 0, 0], world: [0, 0, 0] },
        { model: [1, 0, 0], world: [1, 0, 0] },
      ],
    });
    expect(a.diagnostics.tiltDeg).toBeNull();
  });

  it('refuses input that cannot fix the yaw, with a reason', () => {
    expect(() => alignYaw({ points: [] })).toThrow(DegenerateInputError);
    expect(() => alignYaw({ points: [{ model: [0, 0, 0], world: [1, 1, 1] }] })).toThrow(/rotation about the vertical/);
    expect(() =>
      alignYaw({
        points: [
          { model: [0, 0, 0], world: [0, 0, 0] },
          { model: [0, 5, 0], world: [0, 5, 0] },
        ],
      }),
    ).toThrow(/rotation about the vertical/);
    expect(() => alignYaw({ points: [{ model: [NaN, 0, 0], world: [0, 0, 0] }] })).toThrow(/finite/);
    expect(() => alignYaw({ points: [{ model: [0, 0, 0], world: [0, 0, 0], weight: 0 }] })).toThrow(/weights sum to 0/);
  });
});

describe('alignFrames', () => {
  it('carries one frame onto another (yaw + translation) exactly', () => {
    fc.assert(
      fc.property(angle, angle, vec3(100), vec3(100), (ya, yb, ta, tb) => {
        const model = createPose(ta, [0, Math.sin(ya / 2), 0, Math.cos(ya / 2)]);
        const world = createPose(tb, [0, Math.sin(yb / 2), 0, Math.cos(yb / 2)]);
        const a = alignFrames(model, world);
        expectClose(transformPoint([0, 0, 0], a.pose, ta), tb, 1e-9);
        expect(Math.abs(wrap(a.yaw - (yb - ya)))).toBeLessThan(1e-9);
        expect(a.diagnostics.tiltDeg!).toBeLessThan(1e-6);
      }),
    );
  });
});

describe('largestEigenpair4', () => {
  it('finds the top eigenpair of random symmetric matrices (A·v = λ·v, λ ≥ every Rayleigh quotient tried)', () => {
    const sym = fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 10, maxLength: 10 }).map((u) => {
      const m = new Array<number>(16);
      let k = 0;
      for (let i = 0; i < 4; i++)
        for (let j = i; j < 4; j++) {
          m[i * 4 + j] = u[k]!;
          m[j * 4 + i] = u[k++]!;
        }
      return m;
    });
    fc.assert(
      fc.property(sym, fc.tuple(...Array.from({ length: 4 }, () => fc.double({ min: -1, max: 1, noNaN: true }))), (m, probe) => {
        const { value, vector: v } = largestEigenpair4(m);
        const Av = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].reduce((s, j) => s + m[i * 4 + j]! * v[j]!, 0));
        expectClose(
          Av,
          v.map((x) => x * value),
          1e-7,
        );
        const pl = Math.hypot(...probe);
        if (pl > 1e-3) {
          const p = probe.map((x) => x / pl);
          const rq = [0, 1, 2, 3].reduce((s, i) => s + p[i]! * [0, 1, 2, 3].reduce((t, j) => t + m[i * 4 + j]! * p[j]!, 0), 0);
          expect(rq).toBeLessThanOrEqual(value + 1e-7);
        }
      }),
    );
  });
});
