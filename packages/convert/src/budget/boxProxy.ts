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

/**
 * Where a sheet lies in a box, along its thinnest axis: `at` of the way from the low face to the
 * high one (½, the mid-plane; never exactly a face where it would meet what the element touches).
 */
export function sheetPlane(part: Bounds, at: number): number {
  const axis = thinnestAxis(part);
  return at === 0.5 ? (part.min[axis]! + part.max[axis]!) / 2 : part.min[axis]! + at * (part.max[axis]! - part.min[axis]!);
}

/** Triangles of a {@link sheetProxy}, per box. */
export const SHEET_PROXY_TRIANGLES = 4;

/**
 * A thin element's outline: a plane of its box across the box's thinnest side, drawn both ways
 * (4 triangles a box, with `parts` as for {@link boxProxy}). A window, a door leaf, a railing's
 * panel or a curtain wall's plate seen from either side shows where it is and what it closes, at
 * a third of a box's triangles. `at` says where across the thinnest side the plane lies (see
 * {@link sheetPlane}); at the mid-plane, every point of the element lies within half that side of it.
 *
 * @example
 * ```ts
 * sheetProxy(window).indices.length / 3; // → 4: the pane's plane, seen from inside and out
 * sheetProxy(frame, [frameBox], 0.75); // → the plane three quarters of the way across, nearer the glass behind
 * ```
 */
export function sheetProxy(mesh: SceneMesh, parts: readonly Bounds[] = [pointBounds(mesh.positions)], at = 0.5): SceneMesh {
  const positions = new Float32Array(parts.length * 8 * 3),
    normals = new Float32Array(parts.length * 8 * 3);
  const indices = new Uint32Array(parts.length * 12);
  parts.forEach((part, b) => {
    const axis = thinnestAxis(part);
    // u × v = +axis, so the corners below turn counter-clockwise seen from +axis.
    const u = (axis + 1) % 3,
      v = (axis + 2) % 3;
    const plane = sheetPlane(part, at);
    for (let side = 0; side < 2; side++) {
      const first = b * 8 + side * 4;
      const corners: ReadonlyArray<[number, number]> =
        side === 1
          ? [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 1],
            ]
          : [
              [0, 0],
              [0, 1],
              [1, 1],
              [1, 0],
            ];
      corners.forEach(([cu, cv], c) => {
        const p = (first + c) * 3;
        positions[p + axis] = plane;
        positions[p + u] = cu ? part.max[u]! : part.min[u]!;
        positions[p + v] = cv ? part.max[v]! : part.min[v]!;
        normals[p + axis] = side ? 1 : -1;
      });
      indices.set([first, first + 1, first + 2, first, first + 2, first + 3], b * 12 + side * 6);
    }
  });
  const proxy: SceneMesh = { name: mesh.name, positions, normals, indices, material: mesh.material };
  if (mesh.uvs) proxy.uvs = new Float32Array(parts.length * 8 * 2);
  return proxy;
}

/** The axis along which a box is thinnest (the first of equals). */
export function thinnestAxis({ min, max }: Bounds): 0 | 1 | 2 {
  const side = (k: number) => max[k]! - min[k]!;
  return side(0) <= side(1) ? (side(0) <= side(2) ? 0 : 2) : side(1) <= side(2) ? 1 : 2;
}

/** Triangles of a {@link rimProxy}, per box. */
export const RIM_PROXY_TRIANGLES = 16;

/**
 * A frame's outline: the {@link sheetProxy} with the opening the frame goes round left open —
 * the rectangle the vertices inside the outline span (a window frame's inner edge, its glass a
 * mesh of its own). 16 triangles a box, both ways; a part with nothing inside its outline is a
 * ring round nothing, the whole sheet.
 *
 * @example
 * ```ts
 * rimProxy(frame).indices.length / 3; // → 16: the frame's face, its opening open
 * ```
 */
export function rimProxy(mesh: SceneMesh, parts: readonly Bounds[] = [pointBounds(mesh.positions)]): SceneMesh {
  const positions = new Float32Array(parts.length * 16 * 3),
    normals = new Float32Array(parts.length * 16 * 3);
  const indices = new Uint32Array(parts.length * RIM_PROXY_TRIANGLES * 3);
  parts.forEach((part, b) => {
    const axis = thinnestAxis(part);
    const u = (axis + 1) % 3,
      v = (axis + 2) % 3;
    const middle = (part.min[axis]! + part.max[axis]!) / 2;
    const hole = innerRectangle(mesh, part, u, v);
    // Outer corners then inner, counter-clockwise seen from +axis.
    const rect = (lo: [number, number], hi: [number, number]): Array<[number, number]> => [
      [lo[0], lo[1]],
      [hi[0], lo[1]],
      [hi[0], hi[1]],
      [lo[0], hi[1]],
    ];
    const corners = [...rect([part.min[u]!, part.min[v]!], [part.max[u]!, part.max[v]!]), ...rect(hole.min, hole.max)];
    for (let side = 0; side < 2; side++) {
      const first = b * 16 + side * 8;
      corners.forEach(([cu, cv], c) => {
        const p = (first + c) * 3;
        positions[p + axis] = middle;
        positions[p + u] = cu;
        positions[p + v] = cv;
        normals[p + axis] = side ? 1 : -1;
      });
      for (let q = 0; q < 4; q++) {
        const o0 = first + q,
          o1 = first + ((q + 1) % 4),
          i0 = o0 + 4,
          i1 = o1 + 4;
        const quad = side ? [o0, o1, i1, o0, i1, i0] : [o0, i1, o1, o0, i0, i1];
        indices.set(quad, (b * RIM_PROXY_TRIANGLES + side * 8 + q * 2) * 3);
      }
    }
  });
  const proxy: SceneMesh = { name: mesh.name, positions, normals, indices, material: mesh.material };
  if (mesh.uvs) proxy.uvs = new Float32Array(parts.length * 16 * 2);
  return proxy;
}

/** One part's rim as a {@link rimProxy} drew it: its plane across `axis`, and the opening it leaves along `u` and `v`. */
export interface RimFace {
  axis: number;
  u: number;
  v: number;
  /** Where its plane crosses `axis`, as stored (float32). */
  middle: number;
  opening: Rectangle;
}

/**
 * The faces of a {@link rimProxy} drawn round `parts`, read back from its own vertices (each
 * part's face side first: 4 outer corners, then the opening's, from its low corner): what was
 * drawn, to the float, not found again.
 *
 * @example
 * ```ts
 * rimFaces(rimProxy(frame, parts), parts)[0]!.opening; // → { min: [0.1, 0.1], max: [1.1, 1.1] }
 * ```
 */
export function rimFaces(rim: Pick<SceneMesh, 'positions'>, parts: readonly Bounds[]): RimFace[] {
  const p = rim.positions;
  return parts.map((part, b) => {
    const axis = thinnestAxis(part);
    const u = (axis + 1) % 3,
      v = (axis + 2) % 3;
    const low = (b * 16 + 4) * 3,
      high = (b * 16 + 6) * 3;
    return { axis, u, v, middle: p[b * 16 * 3 + axis]!, opening: { min: [p[low + u]!, p[low + v]!], max: [p[high + u]!, p[high + v]!] } };
  });
}

/** Share of its outline an opening must take for a {@link rimProxy} to leave it open: a frame's, not a handle's. */
const OPENING_MIN_SHARE = 0.25;

/**
 * Whether any part of a mesh goes round an opening worth leaving open: the rectangle its inner
 * vertices span takes at least a quarter of its outline (a window frame round its glass, not a
 * door leaf round its handle).
 *
 * @example
 * ```ts
 * hasOpening(windowFrame, proxyParts(windowFrame)); // → true
 * ```
 */
export function hasOpening(mesh: SceneMesh, parts: readonly Bounds[]): boolean {
  return parts.some((part) => {
    const axis = thinnestAxis(part);
    const u = (axis + 1) % 3,
      v = (axis + 2) % 3;
    return opensWide(innerRectangle(mesh, part, u, v), part, u, v);
  });
}

/**
 * Whether a sheet or box across a mesh's parts would close what the mesh leaves open: its
 * triangles, seen across each part's thinnest side, cover at most three quarters of the parts'
 * outlines, each face counted once (a solid covers its outline twice, front and back). A window
 * frame round its opening does; a door leaf, even one tessellated in a grid, does not. Faces that
 * overlap count twice, so a mesh of overlapping pieces reads as closed.
 *
 * @example
 * ```ts
 * opensThrough(windowFrame, proxyParts(windowFrame)); // → true
 * opensThrough(doorLeaf, proxyParts(doorLeaf)); // → false
 * ```
 */
export function opensThrough(mesh: Pick<SceneMesh, 'positions' | 'indices'>, parts: readonly Bounds[]): boolean {
  const p = mesh.positions;
  let covered = 0,
    outlines = 0;
  for (const part of parts) {
    const axis = thinnestAxis(part);
    const u = (axis + 1) % 3,
      v = (axis + 2) % 3;
    outlines += (part.max[u]! - part.min[u]!) * (part.max[v]! - part.min[v]!);
    for (let t = 0; t < mesh.indices.length; t += 3) {
      const a = mesh.indices[t]! * 3,
        b = mesh.indices[t + 1]! * 3,
        c = mesh.indices[t + 2]! * 3;
      if (!holdsTriangle(part, p, a, b, c)) continue;
      covered += Math.abs((p[b + u]! - p[a + u]!) * (p[c + v]! - p[a + v]!) - (p[c + u]! - p[a + u]!) * (p[b + v]! - p[a + v]!)) / 4;
    }
  }
  return outlines > 0 && covered <= (1 - OPENING_MIN_SHARE) * outlines;
}

/** A rectangle along a part's `u` and `v` axes. */
export interface Rectangle {
  min: [number, number];
  max: [number, number];
}

/**
 * The rectangle (along `u` and `v`) of the opening a part's mesh goes round: spanned by its
 * vertices in `part` that lie inside its outline, not on it. Where those span too little to be an
 * opening (`hasOpening`), that rectangle stretched to an edge of the outline, the largest that no
 * triangle of the part reaches into: a door frame is open at the floor, its opening reaching the
 * outline. The outline's centre, a rectangle of no size, when no vertex lies inside.
 */
function innerRectangle(mesh: Pick<SceneMesh, 'positions' | 'indices'>, part: Bounds, u: number, v: number): Rectangle {
  const inside = spannedInside(mesh.positions, part, u, v);
  if (!inside) {
    const centre: [number, number] = [(part.min[u]! + part.max[u]!) / 2, (part.min[v]! + part.max[v]!) / 2];
    return { min: centre, max: [...centre] };
  }
  if (opensWide(inside, part, u, v)) return inside;
  let reaching: Rectangle | undefined;
  for (const [along, side] of [
    [0, 0],
    [0, 1],
    [1, 0],
    [1, 1],
  ] as const) {
    const stretched: Rectangle = { min: [...inside.min], max: [...inside.max] };
    if (side === 0) stretched.min[along] = part.min[along === 0 ? u : v]!;
    else stretched.max[along] = part.max[along === 0 ? u : v]!;
    if (!opensWide(stretched, part, u, v) || (reaching && area(stretched) <= area(reaching)) || reachedInto(mesh, part, u, v, stretched))
      continue;
    reaching = stretched;
  }
  return reaching ?? inside;
}

function area({ min, max }: Rectangle): number {
  return (max[0] - min[0]) * (max[1] - min[1]);
}

/** Whether `opening` takes enough of the part's outline (along `u` and `v`) to be left open. */
function opensWide(opening: Rectangle, part: Bounds, u: number, v: number): boolean {
  return area(opening) >= OPENING_MIN_SHARE * (part.max[u]! - part.min[u]!) * (part.max[v]! - part.min[v]!);
}

/** The rectangle spanned by the vertices in `part` inside its outline, not on it; none when none are. */
function spannedInside(p: Float32Array, part: Bounds, u: number, v: number): Rectangle | undefined {
  const min: [number, number] = [Infinity, Infinity],
    max: [number, number] = [-Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    if (!holdsVertex(part, p, i)) continue;
    const a = p[i + u]!,
      c = p[i + v]!;
    if (a <= part.min[u]! || a >= part.max[u]! || c <= part.min[v]! || c >= part.max[v]!) continue;
    min[0] = Math.min(min[0], a);
    min[1] = Math.min(min[1], c);
    max[0] = Math.max(max[0], a);
    max[1] = Math.max(max[1], c);
  }
  return min[0] <= max[0] ? { min, max } : undefined;
}

/** Whether the box holds the vertex at `v` (a float32 coordinate from which the box was taken). */
function holdsVertex({ min, max }: Bounds, p: Float32Array, v: number): boolean {
  return p[v]! >= min[0] && p[v]! <= max[0] && p[v + 1]! >= min[1] && p[v + 1]! <= max[1] && p[v + 2]! >= min[2] && p[v + 2]! <= max[2];
}

/** Whether the box holds the triangle whose corners are at `a`, `b` and `c`: the part of a mesh it is. */
export function holdsTriangle(part: Bounds, p: Float32Array, a: number, b: number, c: number): boolean {
  return holdsVertex(part, p, a) && holdsVertex(part, p, b) && holdsVertex(part, p, c);
}

/** Whether any triangle of the part (all its corners in `part`) reaches into the inside of `opening`. */
function reachedInto(mesh: Pick<SceneMesh, 'positions' | 'indices'>, part: Bounds, u: number, v: number, opening: Rectangle): boolean {
  const p = mesh.positions;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const a = mesh.indices[t]! * 3,
      b = mesh.indices[t + 1]! * 3,
      c = mesh.indices[t + 2]! * 3;
    if (holdsTriangle(part, p, a, b, c) && reachesInto(opening, p, u, v, a, b, c)) return true;
  }
  return false;
}

/**
 * Whether the triangle at `a`, `b`, `c`, seen along the axis `u` and `v` leave, reaches into the
 * inside of `opening` (touching its edge is not): no separating axis among the rectangle's two
 * and the triangle's three edge normals. A face seen edge-on is a segment, tested the same way.
 */
export function reachesInto(opening: Rectangle, p: Float32Array, u: number, v: number, a: number, b: number, c: number): boolean {
  const [lu, lv] = opening.min,
    [hu, hv] = opening.max;
  if (!(lu < hu && lv < hv)) return false;
  const xs = [p[a + u]!, p[b + u]!, p[c + u]!],
    ys = [p[a + v]!, p[b + v]!, p[c + v]!];
  if (Math.max(...xs) <= lu || Math.min(...xs) >= hu || Math.max(...ys) <= lv || Math.min(...ys) >= hv) return false;
  for (let e = 0; e < 3; e++) {
    const nx = -(ys[(e + 1) % 3]! - ys[e]!),
      ny = xs[(e + 1) % 3]! - xs[e]!;
    if (nx === 0 && ny === 0) continue;
    const along = (x: number, y: number) => nx * x + ny * y;
    const tri = [0, 1, 2].map((k) => along(xs[k]!, ys[k]!));
    const box = [along(lu, lv), along(hu, lv), along(hu, hv), along(lu, hv)];
    if (Math.max(...box) <= Math.min(...tri) || Math.min(...box) >= Math.max(...tri)) return false;
  }
  return true;
}
