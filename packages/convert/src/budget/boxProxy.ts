import type { Bounds } from '@arsession/geometry';
import type { SceneMesh } from '../scene/SceneData.js';
import { pointBounds } from '../scene/pointBounds.js';

/** Triangles of a {@link boxProxy}, per box. */
export const BOX_PROXY_TRIANGLES = 12;

/** Each face of a box: the axis it faces along, its side, and its four corners as bits (x, y, z). */
const FACES: ReadonlyArray<{ axis: 0 | 1 | 2; side: 0 | 1; corners: readonly [number, number, number, number] }> = [
  { axis: 0, side: 0, corners: [0b000, 0b001, 0b011, 0b010] },
  { axis: 0, side: 1, corners: [0b100, 0b110, 0b111, 0b101] },
  { axis: 1, side: 0, corners: [0b000, 0b100, 0b101, 0b001] },
  { axis: 1, side: 1, corners: [0b010, 0b011, 0b111, 0b110] },
  { axis: 2, side: 0, corners: [0b000, 0b010, 0b110, 0b100] },
  { axis: 2, side: 1, corners: [0b001, 0b101, 0b111, 0b011] },
];

/**
 * A mesh's simplest stand-in: the box around its vertices, in its own frame (so a placed chair's
 * box turns with it), 12 triangles facing out with flat normals, its material and name. What the
 * AR budget draws for a piece of clutter once coarsening it is not enough: where it stands and how
 * big it is, in one draw of 12 triangles a box. Every point of the mesh lies inside the box, so
 * the box is no farther from the mesh than its diagonal, and the mesh no farther from the box
 * than half its thinnest side. `parts`: the boxes to draw instead of the one round all of it (see
 * `proxyParts`: one round each part that lies apart), each as above for the pieces it holds.
 *
 * @example
 * ```ts
 * boxProxy(chair).indices.length / 3; // → 12
 * boxProxy(fastenings, proxyParts(fastenings)).indices.length / 3; // → 24: one box at each rail
 * ```
 */
export function boxProxy(mesh: SceneMesh, parts: readonly Bounds[] = [pointBounds(mesh.positions)]): SceneMesh {
  return boxFaces(mesh, FACES, parts);
}

/** Triangles of a {@link topProxy}, per box. */
export const TOP_PROXY_TRIANGLES = 2;

/** Which face of a mesh's own box is its top: the axis of its frame that points up, and which way. */
export interface UpAxis {
  axis: 0 | 1 | 2;
  /** 1: up is +axis; 0: up is −axis. */
  side: 0 | 1;
}

/**
 * A mesh's barest stand-in, when thousands of boxes are still too many (a rail's 9,238
 * sleepers): the top face of its box, 2 triangles facing up (a box per part, with `parts`). Seen from above, where a person
 * looks at a track or a room's furniture from, it shows where each one is and how much ground it
 * takes. `up` names the mesh's own axis that is drawn upwards; `parts` as for {@link boxProxy}.
 *
 * @example
 * ```ts
 * topProxy(sleeper, { axis: 2, side: 1 }).indices.length / 3; // → 2
 * ```
 */
export function topProxy(mesh: SceneMesh, up: UpAxis, parts: readonly Bounds[] = [pointBounds(mesh.positions)]): SceneMesh {
  return boxFaces(
    mesh,
    FACES.filter((f) => f.axis === up.axis && f.side === up.side),
    parts,
  );
}

/** The given faces of each box, facing out, with flat normals. */
function boxFaces(mesh: SceneMesh, faces: typeof FACES, boxes: readonly Bounds[]): SceneMesh {
  const quads = faces.length * boxes.length;
  const positions = new Float32Array(quads * 4 * 3),
    normals = new Float32Array(quads * 4 * 3);
  const indices = new Uint32Array(quads * 6);
  boxes.forEach(({ min, max }, b) => {
    faces.forEach(({ axis, side, corners }, face) => {
      const f = b * faces.length + face;
      corners.forEach((bits, c) => {
        const v = f * 4 + c;
        positions[v * 3] = bits & 0b100 ? max[0] : min[0];
        positions[v * 3 + 1] = bits & 0b010 ? max[1] : min[1];
        positions[v * 3 + 2] = bits & 0b001 ? max[2] : min[2];
        normals[v * 3 + axis] = side ? 1 : -1;
      });
      indices.set([f * 4, f * 4 + 1, f * 4 + 2, f * 4, f * 4 + 2, f * 4 + 3], f * 6);
    });
  });
  const proxy: SceneMesh = { name: mesh.name, positions, normals, indices, material: mesh.material };
  if (mesh.uvs) proxy.uvs = new Float32Array(quads * 4 * 2);
  return proxy;
}
