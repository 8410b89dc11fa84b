import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anchorUsdz,
  describeLayer,
  PROTOTYPES_SCOPE,
  readUsdz,
  sceneBounds,
  sceneStats,
  writeUsdz,
  type SceneData,
  type SceneMaterial,
  type UsdPrim,
} from '../src/index.js';

const material = (i: number): SceneMaterial => ({
  name: `m${i}`,
  baseColor: [(i + 1) / 8, 0.5, 1 - (i + 1) / 8],
  opacity: 1,
  metallic: 0,
  roughness: 1,
  emissive: [0, 0, 0],
  doubleSided: false,
});

/** A box of `size` at the origin, in one material. */
function box(name: string, size: number, m: number) {
  const s = size;
  return {
    name,
    material: m,
    positions: new Float32Array([0, 0, 0, s, 0, 0, s, s, 0, 0, s, 0, 0, 0, s, s, 0, s, s, s, s, 0, s, s]),
    indices: new Uint32Array([0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3]),
  };
}

/** Nodes drawing meshes at places, some meshes at several nodes (children under parents, too). */
const scenes = fc
  .record({
    meshes: fc.array(fc.record({ size: fc.double({ min: 0.1, max: 3, noNaN: true }), material: fc.integer({ min: 0, max: 3 }) }), {
      minLength: 1,
      maxLength: 5,
    }),
    nodes: fc.array(
      fc.record({
        meshes: fc.uniqueArray(fc.nat(4), { maxLength: 3 }),
        at: fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 })),
        scale: fc.double({ min: 0.5, max: 2, noNaN: true }),
        parent: fc.nat(),
      }),
      { minLength: 1, maxLength: 12 },
    ),
  })
  .map(({ meshes, nodes }): SceneData => {
    const base = {
      meshes: meshes.map((m, i) => box(`part${i}`, m.size, m.material)),
      materials: [0, 1, 2, 3].map(material),
      textures: [],
      nodes: nodes.map((n, i) => ({
        name: `node${i}`,
        // A parent before the node, or none.
        parent: i === 0 || n.parent % 3 === 0 ? -1 : n.parent % i,
        matrix: new Float64Array([n.scale, 0, 0, 0, 0, n.scale, 0, 0, 0, 0, n.scale, 0, ...n.at, 1]),
        meshes: n.meshes.filter((m) => m < meshes.length),
        metadata: {},
      })),
    };
    return { source: { format: 'glb' }, ...base, offset: [0, 0, 0], bounds: sceneBounds(base), stats: sceneStats(base), warnings: [] };
  });

/** Every prim under `prim`, depth first. */
function* prims(prim: UsdPrim): Generator<UsdPrim> {
  yield prim;
  for (const c of prim.children) yield* prims(c);
}

/** What a scene draws, order aside: each draw's colour and triangles. */
function draws(scene: Pick<SceneData, 'nodes' | 'meshes' | 'materials'>): string[] {
  return scene.nodes
    .flatMap((n) =>
      n.meshes.map((m) => {
        const mesh = scene.meshes[m]!;
        return `${scene.materials[mesh.material]!.baseColor.map((c) => c.toFixed(3)).join(',')} × ${mesh.indices.length / 3}`;
      }),
    )
    .sort();
}

describe('describeLayer with instancing', () => {
  it('writes each mesh drawn at several nodes once, as a prototype every one of its nodes instances', () => {
    fc.assert(
      fc.property(scenes, (scene) => {
        const uses = new Map<number, number>();
        for (const n of scene.nodes) for (const m of n.meshes) uses.set(m, (uses.get(m) ?? 0) + 1);
        const shared = [...uses.values()].filter((u) => u > 1);
        const layer = describeLayer(scene, { instanceable: true });
        const all = [...prims(layer.root)];
        const scope = layer.root.children.find((c) => c.name === PROTOTYPES_SCOPE);
        const instances = all.filter((p) => p.instanceable);
        expect(scope?.specifier === 'class' ? scope.children.length : 0).toBe(shared.length);
        expect(instances.length).toBe(shared.reduce((a, b) => a + b, 0));
        // Every Mesh prim is either drawn once or a prototype's: none is written twice.
        expect(all.filter((p) => p.typeName === 'Mesh').length).toBe(uses.size);
        for (const i of instances) expect(i.references![0]).toMatch(new RegExp(`^/Model/${PROTOTYPES_SCOPE}/`));
        // Without instancing nothing of the kind is written.
        const plain = [...prims(describeLayer(scene).root)];
        expect(plain.some((p) => p.instanceable || p.references || p.specifier)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('read back, binary or text, the instanced package draws what the scene draws, where it draws it', async () => {
    await fc.assert(
      fc.asyncProperty(scenes, fc.constantFrom('usdc' as const, 'usda' as const), async (scene, layerFormat) => {
        const back = await readUsdz(new Uint8Array(Buffer.concat(writeUsdz(scene, { instanceable: true, layerFormat }))));
        expect(back.stats.triangles).toBe(scene.stats.triangles);
        expect(draws(back)).toEqual(draws(scene));
        if (scene.stats.triangles === 0) return;
        for (let k = 0; k < 3; k++) {
          expect(back.bounds.min[k]).toBeCloseTo(scene.bounds.min[k]!, 4);
          expect(back.bounds.max[k]).toBeCloseTo(scene.bounds.max[k]!, 4);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('anchored for AR Quick Look, the instances move with the model and keep their materials', async () => {
    await fc.assert(
      fc.asyncProperty(scenes, async (scene) => {
        const usdz = new Uint8Array(Buffer.concat(writeUsdz(scene, { instanceable: true })));
        const up = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, -2, 1]);
        const anchored = await readUsdz(
          new Uint8Array(Buffer.concat(anchorUsdz(usdz, { anchoring: { type: 'plane', alignment: 'horizontal' }, modelToAnchor: up }))),
        );
        expect(draws(anchored)).toEqual(draws(scene));
        if (scene.stats.triangles === 0) return;
        expect(anchored.bounds.min[0]).toBeCloseTo(scene.bounds.min[0] + 5, 4);
        expect(anchored.bounds.max[2]).toBeCloseTo(scene.bounds.max[2] - 2, 4);
      }),
      { numRuns: 20 },
    );
  });
});
