import { sceneBounds, sceneStats, type SceneData, type SceneMaterial, type SceneMesh, type SceneNode } from '../../src/index.js';

/** A column-major translation. */
export function at(x: number, y = 0, z = 0): Float64Array {
  return new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]);
}

/** A plain white material, as a test scene needs one. */
export function plainMaterial(name = 'm'): SceneMaterial {
  return { name, baseColor: [1, 1, 1], opacity: 1, metallic: 0, roughness: 1, emissive: [0, 0, 0], doubleSided: false };
}

/** One triangle in the z = 0 plane, a unit across. */
export function triangleMesh(name: string): SceneMesh {
  return { name, positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]), material: 0 };
}

/** A scene of these nodes and meshes (one plain material), its bounds and counts made from them. */
export function plainScene(nodes: SceneNode[], meshes: SceneMesh[], format: SceneData['source']['format'] = 'ifc'): SceneData {
  const base = { nodes, meshes, materials: [plainMaterial()], textures: [] };
  return { source: { format }, ...base, offset: [0, 0, 0], bounds: sceneBounds(base), stats: sceneStats(base), warnings: [] };
}

/**
 * A square `size` across for each look, 20 apart along x in the ground plane, one material each
 * (its colour, two-sided where asked): what merging materials by their drawn surface is tried on.
 */
export function colouredSquares(
  looks: ReadonlyArray<{ colour: [number, number, number]; size: number; doubleSided?: boolean }>,
): SceneData {
  const meshes: SceneMesh[] = looks.map(({ size }, k) => ({
    name: `m${k}`,
    material: k,
    positions: new Float32Array([k * 20, 0, 0, k * 20 + size, 0, 0, k * 20 + size, 0, size, k * 20, 0, size]),
    indices: new Uint32Array([0, 2, 1, 0, 3, 2]),
  }));
  const nodes: SceneNode[] = meshes.map((_, k) => ({ name: `n${k}`, parent: -1, matrix: at(0), meshes: [k], metadata: {} }));
  const materials: SceneMaterial[] = looks.map(({ colour, doubleSided }, k) => ({
    ...plainMaterial(`c${k}`),
    baseColor: colour,
    doubleSided: doubleSided ?? false,
  }));
  return { ...plainScene(nodes, meshes, 'glb'), materials };
}
