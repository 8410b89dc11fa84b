import { buildBvh } from '@arsession/geometry';
import fc from 'fast-check';
import { MeshoptSimplifier } from 'meshoptimizer';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BOX_PROXY_TRIANGLES,
  boxProxy,
  hasOpening,
  opensThrough,
  RIM_PROXY_TRIANGLES,
  rimProxy,
  SHEET_PROXY_TRIANGLES,
  sheetProxy,
  thinnestAxis,
} from '../src/budget/boxProxy.js';
import { drawnTogether } from '../src/budget/drawnTogether.js';
import { envelopeRoles, isEnvelopeDetail } from '../src/budget/envelopeDetail.js';
import { measureStandIn } from '../src/budget/measureStandIn.js';
import { measureStandIns, UNMEASURED } from '../src/budget/measureStandIns.js';
import { proxyParts } from '../src/budget/proxyParts.js';
import { SceneSimplification } from '../src/budget/SceneSimplification.js';
import { SIMPLIFICATION_POLICY_DEFAULTS } from '../src/budget/SimplificationPolicy.js';
import { simplifyToBudget } from '../src/budget/simplifyToBudget.js';
import { pointBounds } from '../src/scene/pointBounds.js';
import { sceneBounds, sceneStats } from '../src/scene/sceneStats.js';
import type { SceneData, SceneMesh, SceneNode } from '../src/scene/SceneData.js';
import { box, distanceTo, joined, joinedAll, pointsOn, type Vec } from './support/meshes.js';
import { plainMaterial } from './support/plainScene.js';

beforeAll(async () => {
  await MeshoptSimplifier.ready;
});

const at = (x: number, y: number, z: number) => new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]);

/**
 * A pane as an exporter tessellates a curved-profile window: a thin box (thinnest along z) whose
 * two large faces are grids of `n` × `n` quads, so it has 4n² + 8 triangles.
 */
function pane(min: Vec, max: Vec, n: number): SceneMesh {
  const positions: number[] = [],
    indices: number[] = [];
  for (const z of [min[2], max[2]]) {
    const first = positions.length / 3;
    for (let i = 0; i <= n; i++)
      for (let j = 0; j <= n; j++) positions.push(min[0] + ((max[0] - min[0]) * i) / n, min[1] + ((max[1] - min[1]) * j) / n, z);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const a = first + i * (n + 1) + j,
          b = a + n + 1;
        indices.push(...(z === max[2] ? [a, b, a + 1, a + 1, b, b + 1] : [a, a + 1, b, a + 1, b + 1, b]));
      }
  }
  const edges = box(min, max);
  const first = positions.length / 3;
  positions.push(...edges.positions);
  // The box's four sides (its faces along z are the grids above).
  for (let t = 0; t < 12; t++) {
    const corners = [0, 1, 2].map((k) => edges.indices[t * 3 + k]!);
    if (corners.every((c) => edges.positions[c * 3 + 2] === min[2]) || corners.every((c) => edges.positions[c * 3 + 2] === max[2]))
      continue;
    indices.push(...corners.map((c) => c + first));
  }
  return { name: 'pane', positions: new Float32Array(positions), indices: new Uint32Array(indices), material: 1 };
}

/**
 * A one-room building as an IFC reader gives it: four walls and a slab (12 triangles each), and
 * `windows` finely tessellated windows along its front.
 */
function glazedRoom(windows: number, n = 20): SceneData {
  const elements: Array<[string, SceneMesh]> = [
    ['IfcWallStandardCase', box([0, 0, 0], [20, 3, 0.2])],
    ['IfcWallStandardCase', box([0, 0, 9.8], [20, 3, 10])],
    ['IfcWall', box([0, 0, 0], [0.2, 3, 10])],
    ['IfcWall', box([19.8, 0, 0], [20, 3, 10])],
    ['IfcSlab', box([0, -0.3, 0], [20, 0, 10])],
  ];
  for (let w = 0; w < windows; w++) elements.push(['IfcWindow', pane([1 + w * 2.5, 1, 0.05], [2 + w * 2.5 + w * 0.1, 2.2, 0.15], n)]);
  const nodes: SceneNode[] = elements.map(([ifcClass], i) => ({
    name: `${ifcClass} ${i}`,
    parent: -1,
    matrix: at(0, 0, 0),
    meshes: [i],
    metadata: { ifcClass, globalId: `E${i}` },
  }));
  const base = { nodes, meshes: elements.map(([, mesh]) => mesh), materials: [], textures: [] };
  return { source: { format: 'ifc' }, ...base, offset: [0, 0, 0], bounds: sceneBounds(base), stats: sceneStats(base), warnings: [] };
}

describe('isEnvelopeDetail and envelopeRoles', () => {
  it("name doors, windows, members, plates, railings, stairs and beams detail, and walls, slabs and roofs the building's shape", () => {
    for (const c of ['IfcWindow', 'IFCDOOR', 'IfcDoorStandardCase', 'IfcMember', 'IfcPlate', 'IfcRailing', 'IfcStairFlight', 'IfcBeam'])
      expect(isEnvelopeDetail(c)).toBe(true);
    for (const c of ['IfcWall', 'IfcWallStandardCase', 'IFCSLAB', 'IfcRoof', 'IfcCovering', 'IfcColumn', 'IfcFurnishingElement', undefined])
      expect(isEnvelopeDetail(c)).toBe(false);
    const room = glazedRoom(2);
    expect(
      envelopeRoles(
        room,
        room.meshes.map(() => 'envelope'),
      ),
    ).toEqual(['shape', 'shape', 'shape', 'shape', 'shape', 'detail', 'detail']);
    // Outside the envelope, or named by no class, a mesh has no role: the budget treats it as it always has.
    const unnamed = { ...room, nodes: room.nodes.map((n) => ({ ...n, metadata: {} })) };
    expect(
      envelopeRoles(
        unnamed,
        room.meshes.map(() => 'envelope'),
      ).every((r) => r === undefined),
    ).toBe(true);
    expect(
      envelopeRoles(
        room,
        room.meshes.map(() => 'other'),
      ).every((r) => r === undefined),
    ).toBe(true);
  });
});

describe('sheetProxy', () => {
  it("is each part's mid-plane across its thinnest side, 4 triangles facing both ways", () => {
    const thin = pane([0, 0, 1], [2, 1, 1.1], 4);
    const sheet = sheetProxy(thin);
    expect(sheet.indices.length / 3).toBe(SHEET_PROXY_TRIANGLES);
    for (let v = 0; v < sheet.positions.length / 3; v++) expect(sheet.positions[v * 3 + 2]).toBeCloseTo(1.05, 6);
    // Each triangle's winding agrees with its vertices' normal, and the two sides face apart.
    const facing = [];
    for (let t = 0; t < 4; t++) {
      const [a, b, c] = [0, 1, 2].map((k) => sheet.indices[t * 3 + k]! * 3) as Vec;
      const p = sheet.positions;
      const nz = (p[b]! - p[a]!) * (p[c + 1]! - p[a + 1]!) - (p[b + 1]! - p[a + 1]!) * (p[c]! - p[a]!);
      expect(Math.sign(nz)).toBe(sheet.normals![a + 2]);
      facing.push(Math.sign(nz));
    }
    expect(facing.sort()).toEqual([-1, -1, 1, 1]);
  });

  it('lies the given share of the way across the thinnest side, over the whole of the other two', () => {
    fc.assert(
      fc.property(
        fc.record({
          min: fc.tuple(...[0, 1, 2].map(() => fc.double({ min: -50, max: 50, noNaN: true }))),
          sides: fc.tuple(...[0, 1, 2].map(() => fc.double({ min: 0.01, max: 5, noNaN: true }))),
          at: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        ({ min, sides, at }) => {
          const max = min.map((v, k) => v + sides[k]!) as Vec;
          const mesh = box(min as Vec, max);
          const part = pointBounds(mesh.positions);
          const axis = thinnestAxis(part);
          const sheet = sheetProxy(mesh, [part], at);
          const plane = part.min[axis]! + at * (part.max[axis]! - part.min[axis]!);
          const drawn = pointBounds(sheet.positions);
          expect(drawn.min[axis]).toBeCloseTo(plane, 4);
          expect(drawn.max[axis]).toBeCloseTo(plane, 4);
          for (const k of [0, 1, 2].filter((k) => k !== axis)) expect([drawn.min[k], drawn.max[k]]).toEqual([part.min[k], part.max[k]]);
          // Measured at that plane, the box lies as far from it as its farther face.
          const { uncovered } = measureStandIn(mesh, sheet, [part], 'sheet', mesh, undefined, { sheetAt: at });
          expect(uncovered).toBeCloseTo(Math.max(plane - part.min[axis]!, part.max[axis]! - plane), 4);
        },
      ),
    );
  });
});

/** A window frame round a 1 × 1 m opening (four bars 10 cm square), as one mesh. */
function frame(size = 1.2, bar = 0.1, depth = 0.1): SceneMesh {
  const bars = [
    box([0, 0, 0], [bar, size, depth]),
    box([size - bar, 0, 0], [size, size, depth]),
    box([bar, 0, 0], [size - bar, bar, depth]),
    box([bar, size - bar, 0], [size - bar, size, depth]),
  ];
  return {
    name: 'frame',
    positions: new Float32Array(bars.flatMap((b) => [...b.positions])),
    indices: new Uint32Array(bars.flatMap((b, k) => [...b.indices].map((i) => i + k * 24))),
    material: 0,
  };
}

/** A frame's outer size, bar width and depth (m), as `frame` takes them, for fast-check. */
const frameSizes = (smallest = 0.4) => ({
  size: fc.double({ min: smallest, max: 2.5, noNaN: true }),
  bar: fc.double({ min: 0.03, max: 0.15, noNaN: true }),
  depth: fc.double({ min: 0.02, max: 0.6, noNaN: true }),
});

describe('rimProxy', () => {
  it('is the sheet with the opening its frame goes round left open: 16 triangles, its face only', () => {
    const ring = frame();
    const parts = [{ min: [0, 0, 0] as Vec, max: [1.2, 1.2, 0.1] as Vec }];
    expect(hasOpening(ring, parts)).toBe(true);
    const rim = rimProxy(ring, parts);
    expect(rim.indices.length / 3).toBe(RIM_PROXY_TRIANGLES);
    // Nothing of it over the opening, all of it over the frame's face.
    for (const [x, y, z] of pointsOn(rim, 12)) {
      expect(z).toBeCloseTo(0.05, 6);
      expect(x <= 0.1 + 1e-6 || x >= 1.1 - 1e-6 || y <= 0.1 + 1e-6 || y >= 1.1 - 1e-6).toBe(true);
    }
    // Every point of it is inside a bar, 5 cm from its faces at most (bounded within a tenth).
    const { deviation, uncovered } = measureStandIn(ring, rim, parts, 'rim');
    expect(deviation).toBeLessThan(0.05 * 1.1 + 0.01);
    expect(uncovered).toBeLessThan(0.05 * 1.1 + 0.01);
    // A door leaf is no frame: its handle is not an opening worth leaving open.
    const leaf = box([0, 0, 0], [0.9, 2, 0.05]);
    expect(hasOpening(leaf, [{ min: [0, 0, 0], max: [0.9, 2, 0.05] }])).toBe(false);
  });
});

describe('a door frame open at the floor', () => {
  it('goes round an opening that reaches its outline: its rim is its jambs and head, as near as a ring frame', () => {
    // Two jambs and a head, 1.07 × 2.21 m, 2.5 cm deep: the opening's lower corners lie on the outline.
    const [width, height, bar, depth] = [1.07, 2.21, 0.08, 0.025];
    const jambs = joined(box([0, 0, 0], [bar, height, depth]), box([width - bar, 0, 0], [width, height, depth]));
    const doorFrame = { ...joined(jambs, box([bar, height - bar, 0], [width - bar, height, depth])), name: 'door frame' };
    const parts = proxyParts(doorFrame);
    expect(parts).toHaveLength(1);
    expect(hasOpening(doorFrame, parts)).toBe(true);
    const rim = rimProxy(doorFrame, parts);
    // What it draws lies over the frame, none of it across the doorway (its floor side has no
    // width: its two triangles lie on a line and draw nothing).
    const p = rim.positions;
    const corners = (t: number) => [0, 1, 2].map((k) => [0, 1, 2].map((a) => p[rim.indices[t * 3 + k]! * 3 + a]!));
    const area = (t: number) => {
      const [a, b, c] = corners(t) as [number[], number[], number[]];
      const [u, v] = [b.map((x, k) => x - a[k]!), c.map((x, k) => x - a[k]!)];
      return Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!);
    };
    const drawn = Array.from({ length: rim.indices.length / 3 }, (_, t) => t).filter((t) => area(t) > 0);
    expect(drawn.length).toBe(RIM_PROXY_TRIANGLES - 4);
    const faces = { ...rim, indices: new Uint32Array(drawn.flatMap((t) => [0, 1, 2].map((k) => rim.indices[t * 3 + k]!))) };
    for (const [x, y] of pointsOn(faces, 12)) expect(x <= bar + 1e-6 || x >= width - bar - 1e-6 || y >= height - bar - 1e-6).toBe(true);
    const { deviation, uncovered } = measureStandIn(doorFrame, rim, parts, 'rim');
    expect(uncovered).toBeCloseTo(depth / 2, 6);
    expect(deviation).toBeLessThan((depth / 2) * 1.1 + 1e-6);
    // Its sheet spans the doorway, half its width from the jambs.
    const sheet = measureStandIn(doorFrame, sheetProxy(doorFrame, parts), parts, 'sheet');
    expect(sheet.deviation).toBeGreaterThan(width / 2 - bar - 0.01);
  });
});

describe('measureStandIn', () => {
  it('bounds both ways how far a stand-in and the mesh it stands for lie apart: no point farther than stated', () => {
    fc.assert(
      fc.property(
        fc.record({
          size: fc.tuple(fc.double({ min: 0.2, max: 3, noNaN: true }), fc.double({ min: 0.2, max: 3, noNaN: true })),
          thickness: fc.double({ min: 0.01, max: 0.4, noNaN: true }),
          n: fc.integer({ min: 1, max: 4 }),
          kind: fc.constantFrom('box' as const, 'sheet' as const, 'rim' as const),
        }),
        ({ size, thickness, n, kind }) => {
          const mesh = pane([0, 0, 0], [size[0], size[1], thickness], n);
          const parts = proxyParts(mesh);
          const standIn = kind === 'box' ? boxProxy(mesh, parts) : kind === 'sheet' ? sheetProxy(mesh, parts) : rimProxy(mesh, parts);
          const { deviation, uncovered } = measureStandIn(mesh, standIn, parts, kind);
          const slack = 1e-5;
          for (const [x, y, z] of pointsOn(standIn, 24)) expect(distanceTo(mesh, x, y, z)).toBeLessThanOrEqual(deviation + slack);
          for (const [x, y, z] of pointsOn(mesh, 6)) expect(distanceTo(standIn, x, y, z)).toBeLessThanOrEqual(uncovered + slack);
          // A pane's sheet lies half its thickness from it, and a box is the pane itself.
          const thinnest = Math.min(size[0], size[1], thickness);
          if (kind === 'sheet') expect(uncovered).toBeCloseTo(thinnest / 2, 5);
          if (kind === 'box') expect(deviation).toBeLessThan(1e-4);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('bounds a two-sided stand-in as its face alone: its back is the same triangles', () => {
    fc.assert(
      fc.property(fc.record({ ...frameSizes(), kind: fc.constantFrom('sheet' as const, 'rim' as const) }), ({ size, bar, depth, kind }) => {
        const ring = frame(size, bar, depth);
        const parts = proxyParts(ring);
        const standIn = kind === 'sheet' ? sheetProxy(ring, parts) : rimProxy(ring, parts);
        // The face: the first half of each part's triangles (the back follows, wound the other way).
        const perPart = standIn.indices.length / parts.length;
        const face = { ...standIn, indices: standIn.indices.filter((_, i) => i % perPart < perPart / 2) };
        expect(measureStandIn(ring, standIn, parts, kind).deviation).toBe(measureStandIn(ring, face, parts, kind).deviation);
      }),
      { numRuns: 25 },
    );
  });

  it("bounds how far a frame lies from its rim: exactly over the rim's face, from above over the opening", () => {
    fc.assert(
      fc.property(fc.record({ ...frameSizes(0.7), mullion: fc.boolean() }), ({ size, bar, depth, mullion }) => {
        const ring = frame(size, bar, depth);
        // A mullion across the opening, standing out in front: it lies over the opening, not the rim.
        const cross = box([size / 2 - bar / 2, bar, 0], [size / 2 + bar / 2, size - bar, depth * 1.5]);
        const mesh = mullion ? joined(ring, cross) : ring;
        const parts = proxyParts(mesh);
        const rim = rimProxy(mesh, parts);
        const { uncovered } = measureStandIn(mesh, rim, parts, 'rim');
        for (const [x, y, z] of pointsOn(mesh, 6)) expect(distanceTo(rim, x, y, z)).toBeLessThanOrEqual(uncovered + 1e-5);
        // A plain frame lies over its rim's face: half its depth from it, to the float.
        if (!mullion) expect(uncovered).toBeCloseTo(depth / 2, 6);
      }),
      { numRuns: 40 },
    );
  });

  it('measures a rim under a cap as without one, and stops at its side once that reaches the cap', () => {
    fc.assert(
      fc.property(fc.record({ ...frameSizes(0.7), share: fc.double({ min: 0.05, max: 3, noNaN: true }) }), (drawn) => {
        const { size, bar, depth, share } = drawn;
        const ring = frame(size, bar, depth);
        const parts = proxyParts(ring);
        const rim = rimProxy(ring, parts);
        const free = measureStandIn(ring, rim, parts, 'rim');
        const cap = share * free.uncovered;
        const capped = measureStandIn(ring, rim, parts, 'rim', ring, buildBvh(ring), { cap });
        if (free.uncovered >= cap) {
          // Its side alone takes it past: never the nearer stand-in, so its face is not bounded at all.
          expect(capped.uncovered).toBe(free.uncovered);
          expect(capped.deviation).toBe(Number.POSITIVE_INFINITY);
        } else if (Number.isFinite(capped.deviation)) {
          expect(capped).toEqual(free);
        } else {
          expect(free.deviation).toBeGreaterThanOrEqual(cap);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("measures against the element's other meshes when given them: a frame's sheet lies on its glass", () => {
    // A window frame round a 1 × 1 m opening, and its glass in the opening as a mesh of its own.
    const ring = frame();
    const glass = { ...box([0.1, 0.1, 0.045], [1.1, 1.1, 0.055]), material: 2 };
    const parts = [{ min: [0, 0, 0] as Vec, max: [1.2, 1.2, 0.1] as Vec }];
    const sheet = sheetProxy(ring, parts);
    const alone = measureStandIn(ring, sheet, parts, 'sheet');
    const withGlass = measureStandIn(ring, sheet, parts, 'sheet', joined(ring, glass));
    // Alone, the middle of the opening is half a metre from the frame; with the glass, no point is
    // farther than where the sheet crosses the frame (5 cm inside a bar, bounded within 10 %
    // and the cuts a stand-in is given).
    expect(alone.deviation).toBeGreaterThan(0.45);
    expect(withGlass.deviation).toBeLessThan(0.1);
  });
});

describe('measureStandIns', () => {
  it("measures a frame's rim only where it may lie nearer than its sheet", () => {
    const reach = ({ deviation, uncovered }: { deviation: number; uncovered: number }) => Math.max(deviation, uncovered);
    const seen = { rimWorse: 0, rimMeasured: 0 };
    fc.assert(
      fc.property(fc.record({ ...frameSizes(), glazed: fc.boolean() }), ({ size, bar, depth, glazed }) => {
        const ring = frame(size, bar, depth);
        // Glass in the opening, a mesh of the element's own: the sheet over it lies on it.
        const glass = box([bar, bar, depth / 2 - 0.005], [size - bar, size - bar, depth / 2 + 0.005]);
        const surface = glazed ? joined(ring, glass) : ring;
        const parts = proxyParts(ring);
        const enough = 0.01;
        const bvh = buildBvh(surface);
        const sheet = measureStandIn(ring, sheetProxy(ring, parts), parts, 'sheet', surface, bvh, { enough });
        const rim = measureStandIn(ring, rimProxy(ring, parts), parts, 'rim', surface, bvh, { enough });
        const measured = measureStandIns(ring, parts, surface, enough);
        // The sheet stays at the mid-plane unless a plane off it lies nearer either way.
        if (measured.sheetAt === 0.5) expect(measured.sheet).toEqual(sheet);
        else expect(reach(measured.sheet)).toBeLessThan(reach(sheet));
        if (reach(sheet) <= enough) return;
        if (sheet.uncovered >= sheet.deviation) {
          // The rim is the sheet less its opening: the mesh lies no nearer it (float32 corners aside).
          expect(reach(rim)).toBeGreaterThanOrEqual(reach(sheet) - 1e-6);
          expect(measured.rim).toEqual(UNMEASURED);
          seen.rimWorse++;
        } else {
          expect(measured.rim).toEqual(hasOpening(ring, parts) ? rim : UNMEASURED);
          seen.rimMeasured++;
        }
      }),
      { numRuns: 60, seed: 20261129 },
    );
    // Both cases came up: a deep glazed frame, and an open one whose sheet spans its opening.
    expect(seen.rimWorse).toBeGreaterThan(0);
    expect(seen.rimMeasured).toBeGreaterThan(0);
  });
});

/** A frame's sizes as `frame` takes them, and where its glass lies: `behind` its depth from its mid-plane. */
const glazedFrames = fc.record({ ...frameSizes(), behind: fc.double({ min: -1, max: 2, noNaN: true }) });

/** A frame, its surface with its glass (1 cm thick, filling the opening), and the boxes it stands as. */
function glazedFrame({ size, bar, depth, behind }: { size: number; bar: number; depth: number; behind: number }) {
  const ring = frame(size, bar, depth);
  const z = depth / 2 + behind * depth;
  const surface = joined(ring, box([bar, bar, z - 0.005], [size - bar, size - bar, z + 0.005]));
  return { ring, surface, parts: proxyParts(ring) };
}

describe('measureStandIns: what is worth measuring', () => {
  const reach = ({ deviation, uncovered }: { deviation: number; uncovered: number }) => Math.max(deviation, uncovered);

  it('stops measuring a box or rim once it is known to lie no nearer than a cheaper stand-in', () => {
    const seen = { box: 0, rim: 0, dominated: 0 };
    fc.assert(
      fc.property(glazedFrames, (sizes) => {
        const { ring, surface, parts } = glazedFrame(sizes);
        const measured = measureStandIns(ring, parts, surface, 0.01);
        const full = (kind: 'box' | 'rim') =>
          measureStandIn(ring, kind === 'box' ? boxProxy(ring, parts) : rimProxy(ring, parts), parts, kind, surface, undefined, {
            enough: 0.01,
          });
        if (Number.isFinite(reach(measured.box))) {
          expect(measured.box).toEqual(full('box'));
          seen.box++;
        } else if (measured.box !== UNMEASURED) {
          // Stopped early: measured in full, it is no nearer than the sheet.
          expect(reach(full('box'))).toBeGreaterThanOrEqual(reach(measured.sheet));
          seen.dominated++;
        }
        if (Number.isFinite(reach(measured.rim))) {
          expect(measured.rim).toEqual(full('rim'));
          seen.rim++;
        } else if (measured.rim !== UNMEASURED) {
          expect(reach(full('rim'))).toBeGreaterThanOrEqual(Math.min(reach(measured.sheet), reach(measured.box)));
          seen.dominated++;
        }
      }),
      { numRuns: 60, seed: 20261129 },
    );
    // Each case came up: a box and a rim measured in full, and one stopped as no nearer.
    expect(seen.box).toBeGreaterThan(0);
    expect(seen.rim).toBeGreaterThan(0);
    expect(seen.dominated).toBeGreaterThan(0);
  });
});

describe('measureStandIns: where the sheet lies', () => {
  const reach = ({ deviation, uncovered }: { deviation: number; uncovered: number }) => Math.max(deviation, uncovered);

  it("moves a frame's sheet towards glass behind it, as far as that brings it nearer either way", () => {
    // A 10 cm deep frame, its glass 5 cm behind its back face: at the mid-plane the sheet lies
    // 10 cm from the glass; three quarters of the way across, 7.5 cm from glass and frame alike.
    const ring = frame();
    const glass = box([0.1, 0.1, 0.15], [1.1, 1.1, 0.16]);
    const parts = proxyParts(ring);
    const surface = joined(ring, glass);
    const measured = measureStandIns(ring, parts, surface, 0.01);
    const middle = measureStandIn(ring, sheetProxy(ring, parts), parts, 'sheet', surface);
    expect(reach(middle)).toBeGreaterThan(0.099);
    expect(measured.sheetAt).toBe(0.75);
    expect(reach(measured.sheet)).toBeLessThan(0.08);
    // The same figures as the sheet drawn there, measured afresh.
    const drawn = sheetProxy(ring, parts, measured.sheetAt);
    expect(measured.sheet).toEqual(measureStandIn(ring, drawn, parts, 'sheet', surface, undefined, { enough: 0.01, sheetAt: 0.75 }));
  });

  it('looks for the rest of the element where it is told, whatever order the surface lists it in', () => {
    // A union of some of an element's meshes is not first in the element's surface: the rest is
    // passed. The glass 5 cm behind the frame, listed first; a bracket as far in front.
    const ring = frame();
    const parts = proxyParts(ring);
    const glass = box([0.1, 0.1, 0.15], [1.1, 1.1, 0.16]);
    const surface = joined(glass, ring);
    const towardsGlass = measureStandIns(ring, parts, surface, 0.01, glass.positions);
    expect(towardsGlass.sheetAt).toBe(0.75);
    const drawn = sheetProxy(ring, parts, towardsGlass.sheetAt);
    expect(towardsGlass.sheet).toEqual(measureStandIn(ring, drawn, parts, 'sheet', surface, undefined, { enough: 0.01, sheetAt: 0.75 }));
    // Told the rest lies in front, it looks there, finds no nearer place, and stays at the middle.
    const bracket = box([0.5, 0.5, -0.06], [0.6, 0.6, -0.05]);
    expect(measureStandIns(ring, parts, surface, 0.01, bracket.positions).sheetAt).toBe(0.5);
  });

  it('keeps the mid-plane wherever the mesh is what lies farthest: glass at the middle, or none', () => {
    const ring = frame();
    const parts = proxyParts(ring);
    const glass = box([0.1, 0.1, 0.045], [1.1, 1.1, 0.055]);
    expect(measureStandIns(ring, parts, joined(ring, glass), 0.01).sheetAt).toBe(0.5);
    // A slab without an opening: its sheet lies within half its thickness, no nearer off the middle.
    const slab = box([0, 0, 0], [1, 1, 0.2]);
    expect(measureStandIns(slab, proxyParts(slab), slab, 0.01).sheetAt).toBe(0.5);
  });

  it('never makes the sheet farther than the mid-plane, wherever the glass lies', () => {
    fc.assert(
      fc.property(glazedFrames, (sizes) => {
        const { ring, surface, parts } = glazedFrame(sizes);
        const measured = measureStandIns(ring, parts, surface, 0.01);
        const middle = measureStandIn(ring, sheetProxy(ring, parts), parts, 'sheet', surface, undefined, { enough: 0.01 });
        expect(reach(measured.sheet)).toBeLessThanOrEqual(reach(middle));
        expect(measured.sheetAt).toBeGreaterThan(0);
        expect(measured.sheetAt).toBeLessThan(1);
      }),
      { numRuns: 40 },
    );
  });
});

describe('drawnTogether', () => {
  const leaf = box([0, 0, 0], [0.9, 2, 0.05]),
    frame = box([0, 0, 0], [1, 2.1, 0.2]);
  const node = (mesh: number, product: string, m: Float64Array): SceneNode => ({
    name: '',
    parent: -1,
    matrix: m,
    meshes: [mesh],
    metadata: { product, ifcClass: 'IfcDoor' },
  });

  it("lists the meshes an element draws with another, in the other's frame, where they sit alike at every place", () => {
    // web-ifc gives each geometry of an element its own frame: the leaf's is 5 cm in and 7 cm deep.
    const nodes = [
      node(1, '#1', at(10, 0, 0)),
      node(0, '#1', at(10.05, 0, 0.07)),
      node(1, '#2', at(20, 0, 5)),
      node(0, '#2', at(20.05, 0, 5.07)),
    ];
    const scene = { nodes, meshes: [leaf, frame] };
    const together = drawnTogether(scene, () => true);
    expect(together.get(0)).toHaveLength(1);
    expect(together.get(0)![0]!.mesh).toBe(1);
    expect(Array.from(together.get(0)![0]!.toFrame.subarray(12, 15)).map((v) => +v.toFixed(6))).toEqual([-0.05, 0, -0.07]);
    expect(Array.from(together.get(1)![0]!.toFrame.subarray(12, 15)).map((v) => +v.toFixed(6))).toEqual([0.05, 0, 0.07]);
    // A door whose leaf sits elsewhere in its frame: the two are no longer drawn alike everywhere.
    nodes[3] = node(0, '#2', at(20.5, 0, 5.07));
    expect(drawnTogether({ nodes, meshes: [leaf, frame] }, () => true).size).toBe(0);
  });

  it('finds the companions of a railing of a hundred balusters, each one geometry drawn along it', () => {
    const rail = box([0, 1, 0], [10, 1.05, 0.05]),
      baluster = box([0, 0, 0], [0.02, 1, 0.02]);
    const nodes: SceneNode[] = [];
    for (const [product, x] of [
      ['#1', 0],
      ['#2', 20],
    ] as const) {
      nodes.push(node(0, product, at(x, 0, 0)));
      for (let k = 0; k < 100; k++) nodes.push(node(1, product, at(x + k * 0.1, 0, 0)));
    }
    const companions = drawnTogether({ nodes, meshes: [rail, baluster] }, () => true).get(0)!;
    expect(companions).toHaveLength(100);
    expect(companions.every((c) => c.mesh === 1)).toBe(true);
  });

  it('holds places alike within a tenth of a millimetre: a copy far away differs by float noise, not by shape', () => {
    // ¼ inch (6.35 mm) in: a relative place on a rounding boundary, met again 300 m away with noise in its last bits.
    const nodes = [
      node(1, '#1', at(10, 0, 0)),
      node(0, '#1', at(10.00635, 0, 0.07)),
      node(1, '#2', at(310, 0, 5)),
      node(0, '#2', at(310.00635 + 3e-12, 0, 5.07)),
    ];
    expect(
      drawnTogether({ nodes, meshes: [leaf, frame] }, () => true)
        .get(0)
        ?.map((c) => c.mesh),
    ).toEqual([1]);
    // Half a millimetre off is another place.
    nodes[3] = node(0, '#2', at(310.00685, 0, 5.07));
    expect(drawnTogether({ nodes, meshes: [leaf, frame] }, () => true).size).toBe(0);
  });
});

/** A window frame as an exporter tessellates it: four bars 10 cm square round a 1 × 1 m opening, each face a 6 × 6 grid. */
function tessellatedFrame(x: number): SceneMesh {
  const bars = [
    pane([x, 0, 0], [x + 0.1, 1.2, 0.1], 6),
    pane([x + 1.1, 0, 0], [x + 1.2, 1.2, 0.1], 6),
    pane([x + 0.1, 0, 0], [x + 1.1, 0.1, 0.1], 6),
    pane([x + 0.1, 1.1, 0], [x + 1.1, 1.2, 0.1], 6),
  ];
  let first = 0;
  const indices: number[] = [];
  for (const bar of bars) {
    indices.push(...[...bar.indices].map((i) => i + first));
    first += bar.positions.length / 3;
  }
  return {
    name: 'frame',
    positions: new Float32Array(bars.flatMap((b) => [...b.positions])),
    indices: new Uint32Array(indices),
    material: 0,
  };
}

describe('SceneSimplification.fitDetail', () => {
  it('delivers detail simplified where every stand-in would lie far from it: a frame keeps its opening', async () => {
    const room = glazedRoom(0);
    const frames = [0, 2, 4, 6].map((x) => tessellatedFrame(x));
    const meshes = [...room.meshes, ...frames];
    const nodes = [
      ...room.nodes,
      ...frames.map((_, k) => ({
        name: `window ${k}`,
        parent: -1,
        matrix: at(0, 0, 0),
        meshes: [room.meshes.length + k],
        metadata: { ifcClass: 'IfcWindow', globalId: `W${k}` },
      })),
    ];
    const base = { nodes, meshes, materials: [], textures: [] };
    const scene: SceneData = { ...room, ...base, bounds: sceneBounds(base), stats: sceneStats(base) };
    const fitted = (triangles: number) => {
      const simplification = new SceneSimplification(scene);
      simplification.restoreEnvelope();
      expect(simplification.fitDetail(triangles)).toBe(true);
      return simplification.deliver(20_000, 0);
    };
    const frameTriangles = (s: SceneData) => s.meshes.slice(5).map((mesh) => mesh.indices.length / 3);
    // Walls and slab 60 triangles; each frame's flat faces simplify exactly (their borders locked:
    // a few hundred triangles), its rim lies 5 cm inside its bars (16), its sheet across the opening.
    const roomy = fitted(1000);
    for (let m = 0; m < 5; m++) expect(roomy.scene.meshes[m]).toBe(scene.meshes[m]);
    for (const [k, n] of frameTriangles(roomy.scene).entries()) {
      expect(n).toBeGreaterThan(16);
      expect(n).toBeLessThan(frames[k]!.indices.length / 3);
    }
    const simplified = roomy.categories.find((c) => c.category === 'envelope')!;
    expect(simplified.proxiedElements).toBe(0);
    expect(simplified.maxDeviation).toBeLessThan(1e-3);
    expect(simplified.maxUncovered).toBeLessThan(1e-3);
    // With less room the frames stand as rims, their opening still open, some centimetres from the
    // frame each way (the bars' grid points count as inner vertices: the rim is their outer ring).
    const tight = fitted(200);
    expect(frameTriangles(tight.scene)).toEqual([16, 16, 16, 16]);
    const rims = tight.categories.find((c) => c.category === 'envelope')!;
    expect(rims.proxiedElements).toBe(4);
    const apart = Math.max(rims.maxDeviation, rims.maxUncovered);
    expect(apart).toBeGreaterThan(0.05);
    expect(apart).toBeLessThan(0.11);
  });
});

describe("a frame's stand-in across its opening", () => {
  it('is told by how much of its outline its faces cover: a ring of bars opens through, a solid never', () => {
    const side = fc.double({ min: 0.05, max: 4, noNaN: true });
    fc.assert(
      fc.property(side, side, fc.double({ min: 0.01, max: 0.5, noNaN: true }), fc.integer({ min: 1, max: 8 }), (w, h, depth, n) => {
        const solid = pane([0, 0, 0], [w, h, Math.min(depth, w, h) / 2], n);
        expect(opensThrough(solid, proxyParts(solid))).toBe(false);
      }),
    );
    fc.assert(
      fc.property(side, side, fc.double({ min: 0.05, max: 0.2, noNaN: true }), (w, h, share) => {
        // Bars `share` of each side wide: the opening is (1 − 2 share)² of the outline, at least 36%.
        const [bu, bv, depth] = [w * share, h * share, Math.min(w, h) / 4];
        const bars = [
          box([0, 0, 0], [bu, h, depth]),
          box([w - bu, 0, 0], [w, h, depth]),
          box([bu, 0, 0], [w - bu, bv, depth]),
          box([bu, h - bv, 0], [w - bu, h, depth]),
        ];
        const ring = bars.reduce(joined);
        expect(opensThrough(ring, [pointBounds(ring.positions)])).toBe(true);
      }),
    );
  });

  it('is drawn see-through in its colour, while a door leaf standing as its sheet stays as it is', async () => {
    const room = glazedRoom(0);
    const frames = [0, 2, 4, 6].map((x) => ({ ...tessellatedFrame(x), material: 1 }));
    // A door leaf: a slab without an opening, beside the frames.
    const leaf = { ...pane([8, 0, 0], [9, 2, 0.05], 6), material: 2 };
    const detail: Array<[string, SceneMesh]> = [...frames.map((f): [string, SceneMesh] => ['IfcWindow', f]), ['IfcDoor', leaf]];
    const nodes = [
      ...room.nodes,
      ...detail.map(([ifcClass], k) => ({
        name: `${ifcClass} ${k}`,
        parent: -1,
        matrix: at(0, 0, 0),
        meshes: [room.meshes.length + k],
        metadata: { ifcClass, globalId: `D${k}` },
      })),
    ];
    const material = (name: string, baseColor: [number, number, number]) => ({ ...plainMaterial(name), baseColor });
    const materials = [material('wall', [0.5, 0.5, 0.5]), material('wood', [0.6, 0.4, 0.2]), material('paint', [0.2, 0.3, 0.6])];
    const base = { nodes, meshes: [...room.meshes, ...detail.map(([, mesh]) => mesh)], materials, textures: [] };
    const scene: SceneData = { ...room, ...base, bounds: sceneBounds(base), stats: sceneStats(base) };
    // Walls and slab 60 triangles, a sheet for each of the five 20: no room for a rim (16).
    const delivered = await simplifyToBudget(scene, { triangles: 80 });
    const [frameSheets, leafSheet] = [delivered.scene.meshes.slice(5, 9), delivered.scene.meshes[9]!];
    for (const sheet of [...frameSheets, leafSheet]) expect(sheet.indices.length / 3).toBe(SHEET_PROXY_TRIANGLES);
    for (const sheet of frameSheets) {
      const drawnIn = delivered.scene.materials[sheet.material]!;
      expect(drawnIn.baseColor).toEqual(materials[1]!.baseColor);
      expect(drawnIn.opacity).toBe(SIMPLIFICATION_POLICY_DEFAULTS.openSheetOpacity);
    }
    // One variant for the four frames; the leaf, the walls and the materials before it as they were.
    expect(new Set(frameSheets.map((sheet) => sheet.material)).size).toBe(1);
    expect(leafSheet.material).toBe(2);
    expect(delivered.scene.materials.slice(0, 3)).toEqual(materials);
    // Its look is all that changes: the figures are those of the same sheets drawn opaque.
    const opaque = await simplifyToBudget(scene, { triangles: 80, openSheetOpacity: 1 });
    expect(opaque.scene.meshes.slice(5, 9).every((sheet) => sheet.material === 1)).toBe(true);
    expect(opaque.categories).toEqual(delivered.categories);
  });
});

describe('the AR budget, when the envelope itself must give', () => {
  it('delivers walls and slabs exactly as read and stands in for the windows, stating how far each lies', async () => {
    const room = glazedRoom(6);
    const source = room.stats.triangles;
    expect(source).toBeGreaterThan(6 * 1600);
    const { scene, categories } = await simplifyToBudget(room, { triangles: 100 });
    expect(scene.stats.triangles).toBeLessThanOrEqual(100);
    for (let m = 0; m < 5; m++) expect(scene.meshes[m]).toBe(room.meshes[m]);
    // Each window stands as its box (exact, for a pane that is a box) or, where boxes are too many, as its sheet.
    const standIns = scene.meshes.slice(5).map((mesh) => mesh.indices.length / 3);
    expect(standIns.every((n) => n === BOX_PROXY_TRIANGLES || n === SHEET_PROXY_TRIANGLES)).toBe(true);
    expect(standIns.filter((n) => n === SHEET_PROXY_TRIANGLES).length).toBe(4);
    const envelope = categories.find((c) => c.category === 'envelope')!;
    expect(envelope.proxiedElements).toBe(6);
    expect(envelope.leftOut).toEqual([]);
    // Each pane is 10 cm thick: its sheet lies 5 cm from it, and no point of either farther than stated.
    expect(envelope.maxUncovered).toBeCloseTo(0.05, 5);
    for (let m = 5; m < 11; m++) {
      for (const [x, y, z] of pointsOn(scene.meshes[m]!, 16))
        expect(distanceTo(room.meshes[m]!, x, y, z)).toBeLessThanOrEqual(envelope.maxDeviation + 1e-5);
      for (const [x, y, z] of pointsOn(room.meshes[m]!, 1))
        expect(distanceTo(scene.meshes[m]!, x, y, z)).toBeLessThanOrEqual(envelope.maxUncovered + 1e-5);
    }
  });

  it('stands a deep window as two layers and a thin ceiling as its faces, nearer than one sheet, each figure a bound', async () => {
    // Four windows 25 cm deep: a 10 cm frame 15 cm behind its glass and mullion; one sheet of
    // all of each lies up to 12.5 cm from it. And a 5 cm ceiling with a light-fitting hole.
    const room = glazedRoom(0);
    const ceiling = joined(
      joined(box([0.2, 2.95, 0.2], [9, 3, 9.8]), box([11, 2.95, 0.2], [19.8, 3, 9.8])),
      joined(box([9, 2.95, 0.2], [11, 3, 4.7]), box([9, 2.95, 5.3], [11, 3, 9.8])),
    );
    const pieces: Array<[string, SceneMesh, string]> = [['IfcCovering', ceiling, 'C']];
    for (let k = 0; k < 4; k++) {
      const x = 1 + k * 4;
      pieces.push(
        ['IfcWindow', tessellatedFrame(x), `W${k}`],
        ['IfcWindow', { ...box([x + 0.1, 0.1, -0.15], [x + 1.1, 1.1, -0.14]), material: 1 }, `W${k}`],
        ['IfcWindow', box([x + 0.55, 0.1, -0.15], [x + 0.65, 1.1, -0.1]), `W${k}`],
      );
    }
    const nodes = [
      ...room.nodes,
      ...pieces.map(([ifcClass, , globalId], k) => ({
        name: `${ifcClass} ${k}`,
        parent: -1,
        matrix: at(0, 0, 0),
        meshes: [room.meshes.length + k],
        metadata: { ifcClass, globalId },
      })),
    ];
    const base = {
      nodes,
      meshes: [...room.meshes, ...pieces.map(([, mesh]) => mesh)],
      materials: [plainMaterial('wall'), plainMaterial('glass')],
      textures: [],
    };
    const scene: SceneData = { ...room, ...base, bounds: sceneBounds(base), stats: sceneStats(base) };
    const budget = 60 + 16 + 4 * 20;
    const delivered = await simplifyToBudget(scene, { triangles: budget });
    expect(delivered.scene.stats.triangles).toBeLessThanOrEqual(budget);
    for (let m = 0; m < 5; m++) expect(delivered.scene.meshes[m]).toBe(room.meshes[m]);
    // The ceiling's two faces (4 triangles on each of its four boxes), its edges gone.
    expect(delivered.scene.meshes[5]!.indices.length / 3).toBe(16);
    const envelope = delivered.categories.find((c) => c.category === 'envelope')!;
    expect(envelope.leftOut).toEqual([]);
    expect(Math.max(envelope.maxDeviation, envelope.maxUncovered)).toBeLessThan(0.1);
    // Each figure holds: every delivered point near the full model, every full point near the delivery.
    const full = joinedAll(scene.meshes.slice(5));
    const drawn = joinedAll(delivered.scene.meshes.slice(5));
    for (const [x, y, z] of pointsOn(drawn, 8)) expect(distanceTo(full, x, y, z)).toBeLessThanOrEqual(envelope.maxDeviation + 1e-5);
    for (const [x, y, z] of pointsOn(full, 3)) expect(distanceTo(drawn, x, y, z)).toBeLessThanOrEqual(envelope.maxUncovered + 1e-5);
  });

  it('leaves detail out, smallest first and named, before a wall gives a triangle', async () => {
    const room = glazedRoom(6);
    // Walls and slab 60 triangles; six sheets 24 more: three windows must go.
    const { scene, categories } = await simplifyToBudget(room, { triangles: 72 });
    expect(scene.stats.triangles).toBeLessThanOrEqual(72);
    for (let m = 0; m < 5; m++) expect(scene.meshes[m]).toBe(room.meshes[m]);
    const gone = scene.meshes.slice(5).map((mesh) => mesh.indices.length === 0);
    // The windows grow along the front: the three smallest are the first three.
    expect(gone).toEqual([true, true, true, false, false, false]);
    expect(categories.find((c) => c.category === 'envelope')!.leftOut).toEqual([{ ifcClass: 'IfcWindow', elements: 3 }]);
  });

  it('when walls and slab alone are over the budget, every piece of detail is left out first', async () => {
    const room = glazedRoom(6);
    const { scene, categories } = await simplifyToBudget(room, { triangles: 40 });
    expect(scene.stats.triangles).toBeLessThanOrEqual(40);
    expect(scene.meshes.slice(5).every((mesh) => mesh.indices.length === 0)).toBe(true);
    expect(categories.find((c) => c.category === 'envelope')!.leftOut).toEqual([{ ifcClass: 'IfcWindow', elements: 6 }]);
  });

  it('with the envelope alone over, small clutter is left out as read and only large clutter is coarsened', async () => {
    // The glazed room (20 m × 10 m) with a chair-sized wavy seat and a 15 m duct run: each
    // finely tessellated, the seat small beside the model, the duct not.
    const wavy = (name: string, length: number, n: number): SceneMesh => {
      const positions: number[] = [],
        indices: number[] = [];
      for (let i = 0; i <= n; i++)
        for (let j = 0; j <= n; j++) positions.push((i / n) * length, 2 + 0.05 * Math.sin(i * 0.7) * Math.cos(j * 0.7), 4 + (j / n) * 0.5);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          const a = i * (n + 1) + j;
          indices.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
        }
      return { name, positions: new Float32Array(positions), indices: new Uint32Array(indices), material: 3 };
    };
    const room = glazedRoom(6);
    const clutter: Array<[string, SceneMesh]> = [
      ['IfcFurniture', wavy('seat', 0.5, 24)],
      ['IfcFlowSegment', wavy('duct', 15, 24)],
    ];
    const meshes = [...room.meshes, ...clutter.map(([, mesh]) => mesh)];
    const nodes = [
      ...room.nodes,
      ...clutter.map(([ifcClass], k) => ({
        name: ifcClass,
        parent: -1,
        matrix: at(0, 0, 0),
        meshes: [room.meshes.length + k],
        metadata: { ifcClass, globalId: `C${k}` },
      })),
    ];
    const base = { nodes, meshes, materials: [], textures: [] };
    const scene: SceneData = { ...room, ...base, bounds: sceneBounds(base), stats: sceneStats(base) };
    const [seat, duct] = [meshes.length - 2, meshes.length - 1];
    const coarsened = (triangles: number) => {
      const simplification = new SceneSimplification(scene);
      simplification.envelopeWithoutShape();
      simplification.coarsenClutter({ triangles, firstError: 0.002, maxDeviation: 0.02 }, 4);
      return simplification.deliver(2000, 0).scene.meshes.map((mesh) => mesh.indices.length / 3);
    };
    const asRead = (m: number) => meshes[m]!.indices.length / 3;
    // The envelope alone (some 10,000 triangles) over 1,000: the seat will be left out, so it is not coarsened.
    const over = coarsened(1000);
    expect(over[seat]).toBe(asRead(seat));
    expect(over[duct]).toBeLessThan(asRead(duct));
    // With room for the envelope, the seat gives its triangles like any clutter.
    const room20k = coarsened(room.stats.triangles + 200);
    expect(room20k[seat]).toBeLessThan(asRead(seat));
    // Delivered, the seat is left out and named, the duct coarsened; the envelope's detail stands in.
    const { scene: delivered, categories } = await simplifyToBudget(scene, { triangles: 1000 });
    expect(delivered.meshes[seat]!.indices.length).toBe(0);
    expect(delivered.meshes[duct]!.indices.length / 3).toBeLessThan(asRead(duct));
    expect(categories.find((c) => c.category === 'furniture')!.leftOut).toEqual([{ ifcClass: 'IfcFurniture', elements: 1 }]);
  });

  it('within its own error bound the envelope gives what it can, as before: nothing stands in', async () => {
    const room = glazedRoom(6);
    const { scene, categories } = await simplifyToBudget(room, { triangles: 9000 });
    expect(scene.stats.triangles).toBeLessThanOrEqual(9000);
    expect(categories.find((c) => c.category === 'envelope')!.proxiedElements).toBe(0);
    // The panes are simplified (each still more than a box), the walls as read.
    for (let m = 0; m < 5; m++) expect(scene.meshes[m]).toBe(room.meshes[m]);
    expect(scene.meshes.slice(5).some((mesh, k) => mesh.indices.length < room.meshes[k + 5]!.indices.length)).toBe(true);
    expect(scene.meshes.slice(5).every((mesh) => mesh.indices.length / 3 > BOX_PROXY_TRIANGLES)).toBe(true);
  });
});

describe('an element of several meshes stands as one', () => {
  /** The room with `count` windows of one type, each drawing a frame and its glass (two geometries, as web-ifc gives a type). */
  function typedWindows(count: number): SceneData {
    const room = glazedRoom(0);
    const frame = tessellatedFrame(0);
    // Double glazing: one 1 cm pane drawn twice, 4 cm apart in the frame's 10 cm depth, filling its opening.
    const glass = { ...box([0.1, 0.1, 0.025], [1.1, 1.1, 0.035]), material: 2 };
    const meshes = [...room.meshes, frame, glass];
    const nodes: SceneNode[] = [...room.nodes];
    for (let k = 0; k < count; k++) {
      const window = nodes.length;
      nodes.push({
        name: `window ${k}`,
        parent: -1,
        matrix: at(1 + k * 3, 1, 0.05),
        meshes: [5, 6],
        metadata: { ifcClass: 'IfcWindow', globalId: `W${k}` },
      });
      nodes.push({ name: `inner pane ${k}`, parent: window, matrix: at(0, 0, 0.04), meshes: [6], metadata: {} });
    }
    const base = { nodes, meshes, materials: [], textures: [] };
    return { ...room, ...base, bounds: sceneBounds(base), stats: sceneStats(base) };
  }

  it("a window's frame and glass stand as one sheet where a sheet each would not fit; nothing is left out", async () => {
    const scene = typedWindows(6);
    // Walls and slab 60 triangles; a sheet for each frame and each pane would be 72 more, one per window 24.
    const { scene: delivered, categories } = await simplifyToBudget(scene, { triangles: 90 });
    expect(delivered.stats.triangles).toBeLessThanOrEqual(90);
    const [frame, glass] = [delivered.meshes[5]!, delivered.meshes[6]!];
    expect(frame.indices.length / 3).toBe(SHEET_PROXY_TRIANGLES);
    expect(glass.indices.length).toBe(0);
    // In the glass's material: its two panes cover more of the window than the frame's bars do.
    expect(frame.material).toBe(scene.meshes[6]!.material);
    const envelope = categories.find((c) => c.category === 'envelope')!;
    expect(envelope.leftOut).toEqual([]);
    expect(envelope.proxiedElements).toBe(6);
    // The sheet stands in the frame's frame for both: every point of it near the frame or the
    // glass, every point of either near it, within the figures stated.
    const [f, g] = [scene.meshes[5]!, scene.meshes[6]!];
    const inner = g.positions.map((v, i) => (i % 3 === 2 ? v + 0.04 : v));
    const union = {
      positions: new Float32Array([...f.positions, ...g.positions, ...inner]),
      indices: new Uint32Array([
        ...f.indices,
        ...[0, 1].flatMap((k) => [...g.indices].map((i) => i + f.positions.length / 3 + (k * g.positions.length) / 3)),
      ]),
    };
    for (const [x, y, z] of pointsOn(frame, 16)) expect(distanceTo(union, x, y, z)).toBeLessThanOrEqual(envelope.maxDeviation + 1e-5);
    for (const [x, y, z] of pointsOn(union, 1)) expect(distanceTo(frame, x, y, z)).toBeLessThanOrEqual(envelope.maxUncovered + 1e-5);
    // The bars are 10 cm deep: the sheet lies 5 cm from their faces (bounded a little above it).
    expect(Math.max(envelope.maxDeviation, envelope.maxUncovered)).toBeGreaterThanOrEqual(0.05);
    expect(Math.max(envelope.maxDeviation, envelope.maxUncovered)).toBeLessThan(0.1);
  });

  it('with room, each mesh keeps a form of its own and nothing stands in', async () => {
    const scene = typedWindows(6);
    const { scene: delivered, categories } = await simplifyToBudget(scene, { triangles: 3000 });
    expect(delivered.meshes[6]!.indices.length / 3).toBe(BOX_PROXY_TRIANGLES);
    expect(categories.find((c) => c.category === 'envelope')!.proxiedElements).toBe(0);
  });
});

describe("the building's shape gives a few centimetres only where its detail lies as far", () => {
  /** A wall of 8 mm bumps (a profiled cladding), 20 × 3 m in 40 × 6 quads: 480 triangles, beside the room's 6 windows. */
  function claddedRoom(): SceneData {
    const room = glazedRoom(6);
    const positions: number[] = [],
      indices: number[] = [];
    for (let i = 0; i <= 40; i++) for (let j = 0; j <= 6; j++) positions.push(i * 0.5, j * 0.5, -1 - ((i + j) % 2) * 0.008);
    for (let i = 0; i < 40; i++)
      for (let j = 0; j < 6; j++) {
        const a = i * 7 + j,
          b = a + 7;
        indices.push(a, b, a + 1, a + 1, b, b + 1);
      }
    const cladding: SceneMesh = {
      name: 'cladding',
      positions: new Float32Array(positions),
      indices: new Uint32Array(indices),
      material: 0,
    };
    const meshes = [...room.meshes, cladding];
    const nodes = [
      ...room.nodes,
      { name: 'cladding', parent: -1, matrix: at(0, 0, 0), meshes: [meshes.length - 1], metadata: { ifcClass: 'IfcWall', globalId: 'C' } },
    ];
    const base = { nodes, meshes, materials: [], textures: [] };
    return { ...room, ...base, bounds: sceneBounds(base), stats: sceneStats(base) };
  }

  it('a ridged wall gives triangles at a shape error so every window keeps its shape; the figures bound it', async () => {
    const scene = claddedRoom();
    const wall = scene.meshes.length - 1;
    // Walls and slab 60, the cladding 480, the six windows' sheets 24: 4 too many at 560.
    const { scene: delivered, categories } = await simplifyToBudget(scene, { triangles: 560 });
    expect(delivered.stats.triangles).toBeLessThanOrEqual(560);
    const envelope = categories.find((c) => c.category === 'envelope')!;
    expect(envelope.leftOut).toEqual([]);
    expect(delivered.meshes[wall]!.indices.length / 3).toBeLessThan(480);
    const [source, simplified] = [scene.meshes[wall]!, delivered.meshes[wall]!];
    for (const [x, y, z] of pointsOn(simplified, 16)) expect(distanceTo(source, x, y, z)).toBeLessThanOrEqual(envelope.maxDeviation + 1e-5);
    for (const [x, y, z] of pointsOn(source, 4)) expect(distanceTo(simplified, x, y, z)).toBeLessThanOrEqual(envelope.maxUncovered + 1e-5);
  });

  it('without shape errors (as a part is made) the walls stay as read and a window gives way', async () => {
    const scene = claddedRoom();
    const { scene: delivered, categories } = await simplifyToBudget(scene, { triangles: 560, shapeErrors: [] });
    expect(delivered.meshes.at(-1)).toBe(scene.meshes.at(-1));
    expect(categories.find((c) => c.category === 'envelope')!.leftOut).toEqual([{ ifcClass: 'IfcWindow', elements: 1 }]);
  });
});
