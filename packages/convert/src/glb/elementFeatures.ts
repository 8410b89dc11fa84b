import { elementIdOf } from '../scene/elementId.js';
import type { SceneData } from '../scene/SceneData.js';

/** The identity columns of the element table, in order: what a viewer needs to name and look up an element. */
export const ELEMENT_COLUMNS = ['id', 'globalId', 'ifcClass', 'name'] as const;

/** A vertex no run has reached yet, and one of an element without identity. */
const UNSET = 0xffffffff,
  UNKNOWN = 0xfffffffe;

/** What {@link elementFeatures} makes: the element table and, per mesh, each vertex's row in it. */
export interface ElementFeatures {
  /** The table: one row per element, its identity (`id` as `elementIdOf` gives it, `globalId`, `ifcClass`, `name`; `''` where unstated). */
  elements: Array<Record<(typeof ELEMENT_COLUMNS)[number], string>>;
  /**
   * Per scene mesh (by index): each vertex's element (its row), {@link ElementFeatures.none} for
   * a vertex of no known element; `undefined` where the mesh's vertices cannot say it (a mesh
   * drawn for several elements, or one whose vertices are shared between elements).
   */
  ids: Array<Uint32Array | undefined>;
  /** The id of "no element": the table's length. */
  none: number;
}

/**
 * Each delivered vertex's element, for GLB's `EXT_mesh_features`: a merged mesh's triangle runs
 * (`SceneMesh.elements`) give their vertices their element; a mesh drawn for one element (an IFC
 * product's own node) gives all of its. Elements are known by their id (`elementIdOf`), or by
 * their name where they have none; the table lists each once, in the order first met.
 *
 * @example
 * ```ts
 * const { elements, ids } = elementFeatures(scene);
 * elements[ids[0]![0]!]!.globalId; // the element the first mesh's first vertex belongs to
 * ```
 */
export function elementFeatures(scene: SceneData): ElementFeatures {
  const rows = new Map<string, number>();
  const elements: ElementFeatures['elements'] = [];
  const rowOf = (metadata: Readonly<Record<string, string>>): number | undefined => {
    const id = elementIdOf(metadata);
    const key = id ?? (metadata.name ? `name:${metadata.name}` : '');
    if (!key) return undefined;
    let row = rows.get(key);
    if (row === undefined) {
      rows.set(key, (row = elements.length));
      elements.push({ id: id ?? '', globalId: metadata.globalId ?? '', ifcClass: metadata.ifcClass ?? '', name: metadata.name ?? '' });
    }
    return row;
  };
  // The element each unmerged mesh is drawn for: its node's, when every node drawing it is one element.
  const drawnFor = new Map<number, number | null>();
  for (const node of scene.nodes)
    for (const m of node.meshes) {
      const row = rowOf(node.metadata) ?? null;
      drawnFor.set(m, drawnFor.has(m) && drawnFor.get(m) !== row ? null : row);
    }
  const ids = scene.meshes.map((mesh, m): Uint32Array | undefined => {
    const out = new Uint32Array(mesh.positions.length / 3).fill(UNSET);
    if (!mesh.elements) {
      const row = drawnFor.get(m);
      return row === null || row === undefined ? undefined : out.fill(row);
    }
    for (const run of mesh.elements) {
      const row = rowOf(run.metadata) ?? UNKNOWN;
      for (let i = run.firstTriangle * 3, end = (run.firstTriangle + run.triangleCount) * 3; i < end; i++) {
        const v = mesh.indices[i]!;
        // A vertex two elements share cannot name either: the mesh then carries no ids.
        if (out[v] !== UNSET && out[v] !== row) return undefined;
        out[v] = row;
      }
    }
    return out;
  });
  // Vertices in no triangle, and those of elements without identity, are "none".
  const none = elements.length;
  for (const array of ids) if (array) for (let i = 0; i < array.length; i++) if (array[i]! >= UNKNOWN) array[i] = none;
  return { elements, ids, none };
}
