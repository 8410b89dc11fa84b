import { describe, expect, it } from 'vitest';
import { PackageLayers, parseUsda, readCrate, UsdStage, type SdfLayer } from '@arsession/usd';
import { describeLayer } from '../src/usdz/layer/describeLayer.js';
import { renderUsda } from '../src/usdz/writeUsdaLayer.js';
import { renderUsdc } from '../src/usdz/writeUsdcLayer.js';
import { newIdentityMatrix } from '../src/scene/identityMatrix.js';
import type { SceneData } from '../src/scene/SceneData.js';

const encoder = new TextEncoder();
const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** A scene of root nodes, each drawing one triangle: storeys (`storey` metadata, an elevation) and others. */
function sceneOf(roots: Array<{ name: string; metadata: Record<string, string> }>): SceneData {
  return {
    source: { format: 'ifc' },
    nodes: roots.map((r) => ({ name: r.name, parent: -1, matrix: newIdentityMatrix(), meshes: [0], metadata: r.metadata })),
    meshes: [{ name: 'mesh', material: 0, positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) }],
    materials: [{ name: 'm', baseColor: [1, 1, 1], opacity: 1, metallic: 0, roughness: 0.5, emissive: [0, 0, 0], doubleSided: false }],
    textures: [],
    offset: [0, 0, 0],
    bounds: { min: [0, 0, 0], max: [1, 1, 0] },
    stats: { nodes: roots.length, meshNodes: roots.length, meshes: 1, triangles: 1, vertices: 3, materials: 1, textures: 0 },
    warnings: [],
  };
}

const storey = (name: string, elevation?: number) => ({
  name,
  metadata: { storey: name, ...(elevation !== undefined && { elevation: String(elevation) }) },
});

/** Prim paths a stage draws (`def` prims holding a Mesh), when `/Selected` references the layer and selects `storey`. */
function drawnWith(layer: Uint8Array, layerName: string, selection: string): string[] {
  const wrapper = encoder.encode(
    `#usda 1.0\n(\n    defaultPrim = "Selected"\n)\ndef "Selected" (\n    prepend references = @./${layerName}@\n` +
      `    variants = {\n        string storey = "${selection}"\n    }\n)\n{\n}\n`,
  );
  const entries = [
    { name: 'selected.usda', data: wrapper },
    { name: layerName, data: layer },
  ];
  const stage = UsdStage.open(new PackageLayers(entries, { label: 'selected.usdz' }), 'selected.usda');
  return [...stage.traverse()].filter((p) => p.typeName === 'Mesh' && p.specifier === 'def').map((p) => p.path);
}

/** The specs a variant set consists of, as plain data: every spec at or under a variant path, and the owner's variant fields. */
function variantSpecs(layer: SdfLayer): unknown {
  const plain = (v: unknown): unknown =>
    v instanceof Map ? Object.fromEntries([...v].map(([k, x]) => [k, plain(x)])) : Array.isArray(v) ? v.map(plain) : v;
  const owner = layer.specs.get('/Model')!;
  return {
    owner: ['variantSelection', 'variantSetNames', 'variantSetChildren'].map((f) => plain(owner.fields.get(f))),
    inside: [...layer.specs]
      .filter(([path]) => path.includes('{'))
      // A variant is an `over` whether or not a layer says so; the crate says so, as USD's writer does.
      .map(([path, spec]) => [
        path,
        spec.type,
        plain(new Map([...spec.fields].filter(([f]) => spec.type !== 'variant' || f !== 'specifier'))),
      ])
      .sort(),
  };
}

describe('the storey variant set of a delivered layer', () => {
  const scene = sceneOf([storey('Roof', 6), { name: 'Terrain', metadata: {} }, storey('Ground', 0), storey('First', 3)]);

  it('offers every storey alone, bottom up, after "all", which is selected', () => {
    const root = describeLayer(scene).root;
    expect(root.variantSets).toHaveLength(1);
    const set = root.variantSets![0]!;
    expect(set.name).toBe('storey');
    expect(set.selection).toBe('all');
    expect(set.variants.map((v) => v.name)).toEqual(['all', 'Ground', 'First', 'Roof']);
    expect(set.variants[0]!.children).toEqual([]);
    // A storey's variant takes every other storey off the stage, and nothing else (the terrain stays).
    const ground = set.variants[1]!.children;
    expect(ground.map((p) => [p.name, p.specifier, p.active, p.typeName])).toEqual([
      ['First', 'over', false, ''],
      ['Roof', 'over', false, ''],
    ]);
  });

  it('is left out with fewer than two storeys, and names "all" apart from a storey called so', () => {
    expect(describeLayer(sceneOf([storey('Only', 0), { name: 'Terrain', metadata: {} }])).root.variantSets).toBeUndefined();
    const set = describeLayer(sceneOf([storey('all', 0), storey('Upper', 3)])).root.variantSets![0]!;
    expect(set.selection).toBe('all_1');
    expect(set.variants.map((v) => v.name)).toEqual(['all_1', 'all', 'Upper']);
  });

  it('is stated alike in the text and the binary layer', () => {
    const layer = describeLayer(scene);
    const text = parseUsda(concat([...renderUsda(layer)]), 'model.usda');
    const crate = readCrate(concat(renderUsdc(layer)), 'model.usdc');
    expect(variantSpecs(crate)).toEqual(variantSpecs(text));
    expect(crate.specs.get('/Model{storey=}')?.type).toBe('variantSet');
    expect(crate.specs.get('/Model{storey=First}Roof')?.fields.get('active')).toEqual({ kind: 'bool', value: false });
  });

  it('composes as an app selecting a storey sees it, in either form', () => {
    const layer = describeLayer(scene);
    for (const [name, bytes] of [
      ['model.usda', concat([...renderUsda(layer)])],
      ['model.usdc', concat(renderUsdc(layer))],
    ] as const) {
      expect(drawnWith(bytes, name, 'all')).toEqual([
        '/Selected/Roof/mesh',
        '/Selected/Terrain/mesh',
        '/Selected/Ground/mesh',
        '/Selected/First/mesh',
      ]);
      expect(drawnWith(bytes, name, 'First')).toEqual(['/Selected/Terrain/mesh', '/Selected/First/mesh']);
      expect(drawnWith(bytes, name, 'Ground')).toEqual(['/Selected/Terrain/mesh', '/Selected/Ground/mesh']);
    }
  });
});
