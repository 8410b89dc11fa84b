import { mat4 } from 'gl-matrix';
import type { SceneData } from '../scene/SceneData.js';
import { worldMatrices } from '../scene/sceneStats.js';
import { elementKey } from './elementKey.js';

/** A mesh drawn with another by the same element, and the matrix taking its vertices into the other's frame. */
export interface Companion {
  mesh: number;
  /**
   * Column-major 4×4 from the companion's own frame to the frame of the mesh it accompanies, to a
   * millionth: the same element elsewhere gives the same matrix, not one that differs in the last
   * bits by where it stands.
   */
  toFrame: Float64Array;
}

/** How far (m, or a rotation's entry) a companion's place may differ from one place to another and still be the same. */
const SAME_PLACE = 1e-4;

/**
 * Elements drawn by more meshes than this are not searched for companions (a curtain wall of a
 * thousand plates: the search is quadratic in them); a railing of a hundred balusters is.
 */
const MAX_MESHES_PER_ELEMENT = 256;

/**
 * For each mesh `of` asks for, the other meshes its elements draw with it, in the same place
 * relative to it wherever it is drawn: a door type's frame, leaf and glass, each a geometry of
 * its own frame. What a stand-in of one of them is measured against is the element's whole
 * surface, not the one piece it replaces. A companion that does not sit the same way at every
 * place (a geometry shared by elements that differ) is not listed.
 *
 * @example
 * ```ts
 * drawnTogether(scene, (m) => detail[m] === 1).get(frame); // → [{ mesh: leaf, toFrame }, { mesh: glass, toFrame }]
 * ```
 */
export function drawnTogether(scene: Pick<SceneData, 'nodes' | 'meshes'>, of: (mesh: number) => boolean): Map<number, Companion[]> {
  const world = worldMatrices(scene.nodes);
  const byElement = new Map<string, Array<{ node: number; mesh: number }>>();
  const places = new Map<number, Array<{ node: number; element: string }>>();
  scene.nodes.forEach((node, n) => {
    if (node.meshes.length === 0) return;
    const element = elementKey(scene.nodes, n);
    const drawn = byElement.get(element) ?? [];
    byElement.set(element, drawn);
    for (const mesh of node.meshes) {
      drawn.push({ node: n, mesh });
      if (!of(mesh)) continue;
      const list = places.get(mesh) ?? [];
      list.push({ node: n, element });
      places.set(mesh, list);
    }
  });
  const found = new Map<number, Companion[]>();
  const inverse = mat4.create() as Float64Array;
  const relative = mat4.create() as Float64Array;
  for (const [mesh, at] of places) {
    let agreed: Companion[] | undefined;
    for (const { node, element } of at) {
      const drawn = byElement.get(element)!;
      if (drawn.length > MAX_MESHES_PER_ELEMENT) {
        agreed = [];
        break;
      }
      mat4.invert(inverse, world[node]! as unknown as mat4);
      const here: Companion[] = [];
      // Each companion agreed on is matched once at this place: a set, so a railing's hundred balusters stay quadratic.
      const matched = new Set<Companion>();
      for (const other of drawn) {
        if (other.mesh === mesh && other.node === node) continue;
        mat4.multiply(relative, inverse, world[other.node]! as unknown as mat4);
        // Within a tenth of a millimetre at every place: the same element elsewhere differs by float noise, not by shape.
        const same = agreed?.find((c) => c.mesh === other.mesh && !matched.has(c) && closeTo(c.toFrame, relative, SAME_PLACE));
        if (same) {
          here.push(same);
          matched.add(same);
        } else if (!agreed) here.push({ mesh: other.mesh, toFrame: Float64Array.from(relative, (v) => Math.round(v * 1e6) / 1e6) });
      }
      agreed = here;
      if (agreed.length === 0) break;
    }
    if (agreed && agreed.length > 0) found.set(mesh, agreed);
  }
  return found;
}

function closeTo(a: Float64Array, b: Float64Array, tolerance: number): boolean {
  for (let i = 0; i < 16; i++) if (Math.abs(a[i]! - b[i]!) > tolerance) return false;
  return true;
}
