import type { ConversionResult } from '../worker/protocol.js';

/** A converted model's counts under the names the HTTP detail record and the CLI's `--json` use. */
export interface ConversionStatsOnWire {
  triangles: number;
  /** Prims (nodes) with a mesh, as delivered. */
  mesh_nodes: number;
  /** Draw calls a renderer makes for it: one per mesh per node that draws it. */
  draw_calls: number;
  /** Elements of the source model before merging (IFC products, GLB mesh nodes, USD mesh prims). */
  elements: number;
  /** Delivered triangles no element owns (see `trianglesWithoutElement`): 0 when every one answers "what is this?". */
  triangles_without_element: number;
  nodes: number;
  vertices: number;
  materials: number;
  textures: number;
}

/**
 * A conversion's counts as arsession states them outside the library (snake case, as the detail
 * record): the same words whether read from the API or from `arsession convert --json`.
 *
 * @example
 * ```ts
 * conversionStatsOnWire(result.stats).mesh_nodes; // ≤ 5000
 * ```
 */
export function conversionStatsOnWire(stats: ConversionResult['stats']): ConversionStatsOnWire {
  return {
    triangles: stats.triangles,
    mesh_nodes: stats.meshNodes,
    draw_calls: stats.drawCalls,
    elements: stats.elements,
    triangles_without_element: stats.trianglesWithoutElement,
    nodes: stats.nodes,
    vertices: stats.vertices,
    materials: stats.materials,
    textures: stats.textures,
  };
}
