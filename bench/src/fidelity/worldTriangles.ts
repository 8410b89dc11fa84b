import { worldMatrices, type SceneData } from '@arsession/convert';
import { BUDGET_CATEGORIES, categoryOfIfcClass } from '@arsession/convert';

/** Every drawn triangle of a scene as a flat soup in one frame, each with the category of its element. */
export interface WorldTriangles {
  /** Nine floats per triangle (its corners' x y z), Y-up metres, relative to `offset`. */
  positions: Float32Array;
  /** Per triangle, its index into {@link BUDGET_CATEGORIES}. */
  categories: Uint8Array;
  /** The frame: a model point `p` is at `p − offset` in `positions`. */
  offset: [number, number, number];
}

/**
 * Flattens a scene into world-space triangles (each mesh instance through its node's world matrix,
 * in float64, then float32), unindexed, each tagged with the category of the IFC class it was
 * drawn for: a merged mesh's element run's class, else its node's or the nearest ancestor's with
 * one. `frame` is the offset the positions are made relative to, so two scenes read with
 * different offsets land in one frame (default: the scene's own).
 *
 * @example
 * ```ts
 * const full = worldTriangles(await readIfc(bytes));
 * const delivered = worldTriangles(fitted.scene, full.offset);
 * ```
 */
export function worldTriangles(
  scene: Pick<SceneData, 'nodes' | 'meshes' | 'offset'>,
  frame: readonly [number, number, number] = scene.offset,
): WorldTriangles {
  const world = worldMatrices(scene.nodes);
  // World = position + offset: relative to `frame`, a position moves by offset − frame (float64,
  // so a model kilometres from its origin keeps its millimetres).
  const shift = [scene.offset[0] - frame[0], scene.offset[1] - frame[1], scene.offset[2] - frame[2]] as const;
  // Parents precede children (SceneData's order), so an ancestor's class is known before its descendants'.
  const classes: Array<string | undefined> = [];
  let triangles = 0;
  for (const node of scene.nodes) {
    classes.push(node.metadata.ifcClass ?? (node.parent >= 0 ? classes[node.parent] : undefined));
    for (const m of node.meshes) triangles += scene.meshes[m]!.indices.length / 3;
  }
  const code = (ifcClass: string | undefined) => BUDGET_CATEGORIES.indexOf(categoryOfIfcClass(ifcClass));
  const positions = new Float32Array(triangles * 9);
  const categories = new Uint8Array(triangles);
  let t = 0;
  scene.nodes.forEach((node, n) => {
    const w = world[n]!;
    const nodeCode = code(classes[n]);
    for (const m of node.meshes) {
      const { positions: p, indices, elements } = scene.meshes[m]!;
      const first = t;
      for (let i = 0; i < indices.length; i++) {
        const v = indices[i]! * 3;
        const x = p[v]!,
          y = p[v + 1]!,
          z = p[v + 2]!;
        const o = t * 9 + (i % 3) * 3;
        positions[o] = w[0]! * x + w[4]! * y + w[8]! * z + w[12]! + shift[0];
        positions[o + 1] = w[1]! * x + w[5]! * y + w[9]! * z + w[13]! + shift[1];
        positions[o + 2] = w[2]! * x + w[6]! * y + w[10]! * z + w[14]! + shift[2];
        if (i % 3 === 2) t++;
      }
      categories.fill(nodeCode, first, t);
      // Runs not covered by an element (if any) keep the node's category.
      for (const e of elements ?? []) {
        categories.fill(
          code(e.metadata.ifcClass ?? classes[n]),
          first + e.firstTriangle,
          Math.min(t, first + e.firstTriangle + e.triangleCount),
        );
      }
    }
  });
  return { positions, categories, offset: [frame[0], frame[1], frame[2]] };
}
