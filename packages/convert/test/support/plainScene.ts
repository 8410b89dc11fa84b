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
