import type { Bvh, TriangleMesh } from '../bvh/Bvh.js';
import { raycastFirst, type RayHit } from '../bvh/raycastFirst.js';
import { DOOR_SIZE_LIMITS, type DoorSizeLimits } from '../opening/doorSize.js';
import type { ReadonlyVec3, Vec3 } from '../types/vector.js';
import type { WallPlane } from './findWallPlanes.js';
import { bisect, median, spread } from './edgeMeasures.js';
import { findFlushLeaf, type WallFaceProbe } from './findFlushLeaf.js';
import { runsWithinGap } from './runsWithinGap.js';

/** Options of {@link findOpeningInWall}. */
export interface FindOpeningInWallOptions {
  /** Spacing (m) of the coarse grid sampled on the wall face. */
  gridStep: number;
  /** How far (m) to each side of the gaze point the wall is searched. */
  searchHalfWidth: number;
  /** Farthest (m) an opening may lie from the gaze point. */
  maxLateral: number;
  /** Material within this distance (m) of a wall face counts as that face. */
  faceTolerance: number;
  /** Thickest wall (m) looked for; a wall with no back face within it is treated as a surface of zero thickness. */
  maxThickness: number;
  /** Farthest (m) below the eye the bottom of a door may lie. */
  maxFloorDrop: number;
  /** Nearest (m) below the eye the bottom of a door may lie; higher up, an opening is a window. */
  minDrop: number;
  /**
   * Thickest floor build-up (m) left out of a model: a wall beside the opening that stands at most
   * this far above the floor the rays meet starts at the finished floor, and so does the doorway.
   */
  maxScreed: number;
  /** Least run of wall (m) at the probe height for an unframed opening (no lintel: full height) to count. */
  minWallLength: number;
  /** Solid this much (m) deeper than the wall behind a spot on its face is a cross wall abutting it. */
  abutDepth: number;
  /** Sizes an opening must have to be a door. */
  size: DoorSizeLimits;
  /** Part of the model each triangle belongs to (see `DetectionMesh.groups`). */
  groups?: Uint32Array;
}

/** Defaults of {@link findOpeningInWall}. */
export const FIND_OPENING_IN_WALL_DEFAULTS: Readonly<FindOpeningInWallOptions> = {
  gridStep: 0.1,
  searchHalfWidth: 3,
  maxLateral: 0.6,
  faceTolerance: 0.005,
  maxThickness: 1.2,
  maxFloorDrop: 3,
  minDrop: 1,
  maxScreed: 0.2,
  minWallLength: 0.3,
  abutDepth: 0.05,
  size: DOOR_SIZE_LIMITS,
};

/** A door-sized, floor-level opening in a wall. */
export interface WallOpening {
  /** [BL, BR, TR, TL] on the face the viewer sees. */
  corners: [Vec3, Vec3, Vec3, Vec3];
  /** Wall thickness found (0 for a single surface). */
  thickness: number;
  /** Distance (m) from the gaze point to the opening; 0 when the gaze point is inside it. */
  lateral: number;
  /** Largest disagreement (m) between an edge's measurements at different heights. */
  edgeSpread: number;
}

/** Why a wall holds no opening. */
export type NoOpeningReason = 'no_floor' | 'no_opening_near_gaze';

/**
 * Finds the door opening nearest the gaze point in one wall plane. A spot on the face counts as
 * wall where material lies at both faces of the wall slab (within `faceTolerance`), or where
 * solid runs on deeper than the wall is thick (a cross wall abutting it end-on, `abutDepth`), so
 * leaves (closed, flush, glazed), casings, skirtings and furniture standing in front are not
 * wall; the opening is the floor-level run of columns free of wall up to a door's least height,
 * bounded by wall on both sides, its edges then bisected to a fraction of a millimetre. A leaf as
 * thick as the wall and flush with both faces, which measures as wall, is found by its outline
 * when the gaze rests on it and the mesh's groups tell it from the wall ({@link findFlushLeaf}).
 *
 * @example
 * ```ts
 * const found = findOpeningInWall(bvh, mesh, plane, gazePoint, eye);
 * if (typeof found !== 'string') found.corners; // [BL, BR, TR, TL]
 * ```
 */
export function findOpeningInWall(
  bvh: Bvh,
  mesh: TriangleMesh,
  plane: WallPlane,
  gazePoint: ReadonlyVec3,
  eye: ReadonlyVec3,
  options: Partial<FindOpeningInWallOptions> = {},
): WallOpening | NoOpeningReason {
  const opts = { ...FIND_OPENING_IN_WALL_DEFAULTS, ...options };
  const { normal: n, offset } = plane;
  const tol = opts.faceTolerance,
    step = opts.gridStep;
  // Face coordinates: s along r = up × n (the viewer's right), y up, s = 0 at the gaze point.
  const r: Vec3 = [n[2], 0, -n[0]];
  const along = n[0] * gazePoint[0] + n[2] * gazePoint[2] - offset;
  const bx = gazePoint[0] - n[0] * along,
    bz = gazePoint[2] - n[2] * along;

  const hit: RayHit = { distance: 0, triangle: -1, u: 0, v: 0 };
  const o: Vec3 = [0, 0, 0],
    d: Vec3 = [0, 0, 0];
  const cast = (
    s: number,
    y: number,
    depth: number,
    dx: number,
    dy: number,
    dz: number,
    max: number,
    accept?: (t: number) => boolean,
  ): number | undefined => {
    o[0] = bx + r[0] * s - n[0] * depth;
    o[1] = y;
    o[2] = bz + r[2] * s - n[2] * depth;
    d[0] = dx;
    d[1] = dy;
    d[2] = dz;
    return raycastFirst(bvh, mesh, o, d, max, hit, accept)?.distance;
  };
  // What lies on the face at (s, y): a ray through the face plane, a tolerance either side.
  const castAtFace = (s: number, y: number, accept?: (t: number) => boolean) => cast(s, y, -tol, -n[0], 0, -n[2], 2 * tol, accept);

  const { groups } = opts;
  const { thickness, wallGroups } = measureWall(
    plane,
    groups,
    (p) => {
      o[0] = p[0] - n[0] * 0.002;
      o[1] = p[1];
      o[2] = p[2] - n[2] * 0.002;
      d[0] = -n[0];
      d[1] = 0;
      d[2] = -n[2];
      const t = raycastFirst(bvh, mesh, o, d, opts.maxThickness, hit)?.distance;
      return t === undefined ? undefined : t + 0.002;
    },
    tol,
  );
  const ofWall = groups && wallGroups && ((triangle: number) => wallGroups.has(groups[triangle]!));
  const mid = thickness / 2; // depth of the slab's middle
  // Rays inside an opening start near the front face, in the middle and near the back face.
  const depths = thickness === 0 ? [0] : [Math.min(2 * tol, mid), mid, Math.max(thickness - 2 * tol, mid)];
  const farthest = (probe: (depth: number) => number | undefined): number | undefined => {
    let best: number | undefined;
    for (const depth of depths) {
      const t = probe(depth);
      if (t !== undefined && (best === undefined || t > best)) best = t;
    }
    return best;
  };

  // `wall` tells the wall's own triangles from others (all are the wall's when undefined).
  const isWall = (s: number, y: number, wall = ofWall): boolean => {
    // Whatever is at the face first: nothing there (most samples) costs one ray, and when the
    // nearest thing is the wall's own, it is also the nearest of the wall's own.
    const face = castAtFace(s, y);
    if (face === undefined) return false;
    const front = !wall || wall(hit.triangle) ? face : castAtFace(s, y, wall);
    if (front !== undefined && (thickness === 0 || cast(s, y, thickness + tol, n[0], 0, n[2], 2 * tol, wall) !== undefined)) return true;
    if (thickness === 0) return false;
    // A wall abutting this one end-on (a jamb where a cross wall meets the door's wall) shows its end
    // face in the plane and runs on deeper than this wall is thick: solid, whatever part it is.
    // Leaves, casings and frames flush with the face end within the wall's thickness.
    return cast(s, y, face - tol + 0.002, -n[0], 0, -n[2], thickness + opts.abutDepth) === undefined;
  };

  const at = (s: number, y: number): Vec3 => [bx + r[0] * s, y, bz + r[2] * s];

  // A leaf as thick as the wall and flush with both faces measures like wall: it is looked for
  // first, as the part the gaze rests on.
  if (groups && wallGroups && thickness > 0) {
    const probe: WallFaceProbe = {
      partAt: (s, y) => (castAtFace(s, y) === undefined ? undefined : groups[hit.triangle]),
      isWall: (s, y, ofPart) => isWall(s, y, (triangle) => ofPart(groups[triangle]!)),
      below: (s, y, depth, max, except) => {
        const distance = cast(s, y, depth, 0, -1, 0, max, (triangle) => groups[triangle] !== except);
        return distance === undefined ? undefined : { distance, part: groups[hit.triangle]! };
      },
    };
    const { maxFloorDrop, minDrop, maxScreed } = opts;
    const leaf = findFlushLeaf(
      probe,
      { parts: wallGroups, mid },
      { gazeY: gazePoint[1], eyeY: eye[1] },
      { maxFloorDrop, minDrop, maxScreed },
    );
    if (leaf) {
      const { left, right, bottom, top, edgeSpread } = leaf;
      return { corners: [at(left, bottom), at(right, bottom), at(right, top), at(left, top)], thickness, lateral: 0, edgeSpread };
    }
  }

  const probeY = Math.min(eye[1] - 0.3, Math.max(gazePoint[1], eye[1] - 1));
  const columns = Math.round(opts.searchHalfWidth / step);
  // Wall at the probe height, per column (−1: not yet cast): the column loop and the search for the
  // wall beside an unfloored column ask about the same columns, the search up to half a door beyond the strip.
  const reach = Math.ceil(opts.size.maxWidth / 2 / step);
  const wallAtProbe = new Int8Array(2 * (columns + reach) + 1).fill(-1);
  const isWallAtProbe = (c: number): boolean => {
    const i = c + columns + reach;
    if (wallAtProbe[i] === -1) wallAtProbe[i] = isWall(c * step, probeY) ? 1 : 0;
    return wallAtProbe[i] === 1;
  };
  // The wall's underside at s, from a ray cast down inside the slab from the probe height: where the
  // wall stands, it starts in the wall's solid and meets its bottom face.
  const undersideAt = (s: number): number | undefined => {
    const t = thickness === 0 ? undefined : cast(s, probeY, mid, 0, -1, 0, opts.maxFloorDrop, ofWall);
    return t === undefined ? undefined : probeY - t;
  };
  // The underside of the nearest wall beside column c, no farther than half the widest door.
  const wallBottomBeside = (c: number): number | undefined => {
    if (thickness === 0) return undefined;
    for (let k = 1; k <= reach; k++) {
      for (const w of [c - k, c + k]) {
        if (!isWallAtProbe(w)) continue;
        const bottom = undersideAt(w * step);
        if (bottom !== undefined) return bottom;
      }
    }
    return undefined;
  };

  // A column of the coarse grid is open when no wall stands at the probe height, and none from what
  // a ray going down inside the slab meets there (a threshold, a floor) up to a door's least height.
  // Each column finds its own bottom: a model without slabs, or a door up a flight of steps, has
  // no floor under the viewer. A bottom less than `minDrop` below the eye is a window sill.
  const open = new Uint8Array(2 * columns + 1);
  const bottoms = new Float64Array(2 * columns + 1);
  // Columns whose bottom is the wall's underside (no floor within reach), not a floor.
  const hanging = new Uint8Array(2 * columns + 1);
  let emptyAtProbe = 0,
    grounded = 0;
  for (let c = -columns; c <= columns; c++) {
    const s = c * step;
    if (isWallAtProbe(c)) continue;
    emptyAtProbe++;
    const drop = farthest((depth) => cast(s, probeY, depth, 0, -1, 0, opts.maxFloorDrop));
    // Nothing to stand on within reach (a storey modelled without its floor slab): the doorway then
    // ends where the wall beside it ends.
    const onFloor = drop !== undefined && eye[1] - (probeY - drop) <= opts.maxFloorDrop;
    const bottom = onFloor ? probeY - drop : wallBottomBeside(c);
    if (bottom === undefined) continue;
    grounded++;
    const fall = eye[1] - bottom;
    if (fall < opts.minDrop || fall > opts.maxFloorDrop) continue;
    let free = true;
    for (let y = bottom + 0.05; y <= bottom + opts.size.minHeight && free; y += step) free = !isWall(s, y);
    open[c + columns] = free ? 1 : 0;
    bottoms[c + columns] = bottom;
    hanging[c + columns] = onFloor ? 0 : 1;
  }
  if (emptyAtProbe > 0 && grounded === 0) return 'no_floor';
  // A plane that is mostly air at the probe height (a railing, a flight's risers, a cabinet's side
  // panel, or the casing round a door whose wall stands back) holds a door only where it frames one.
  const airy = (2 * columns + 1 - emptyAtProbe) * step < opts.minWallLength;
  type Run = { first: number; last: number; lateral: number };
  const runs: Run[] = [];
  for (let c = -columns; c <= columns; c++) {
    if (!open[c + columns] || (c > -columns && open[c - 1 + columns])) continue;
    let last = c;
    while (last < columns && open[last + 1 + columns]) last++;
    // A run reaching the edge of the searched strip is not bounded by wall: the end of a wall, not a door.
    if (c === -columns || last === columns) continue;
    const lateral = Math.max(0, c * step - step / 2, -(last * step + step / 2));
    if (lateral <= opts.maxLateral + step) runs.push({ first: c, last, lateral });
  }
  runs.sort((a, b) => a.lateral - b.lateral);

  for (const run of runs) {
    const s0 = run.first * step,
      s1 = run.last * step;
    const floor = median(Array.from(bottoms.subarray(run.first + columns, run.last + columns + 1)));
    // Without a floor, or without much wall, only a hole with a lintel is a doorway; a gap between
    // two walls, under a wall's end, or between two low cabinets is not.
    const mustBeFramed = airy || hanging.subarray(run.first + columns, run.last + columns + 1).includes(1);
    const heights = [0.4, 1.0, opts.size.minHeight - 0.1].map((h) => floor + h);
    const lefts: number[] = [],
      rights: number[] = [];
    // At each height, the first wall within three steps outward of the run's outer column (a sample
    // exactly on an edge may fall either side of it). A strip of wall narrower than a step (where a
    // cross wall meets the door's wall just beside the jamb) can hide between two columns, so the
    // way from the run's last step out to that wall is walked in quarter steps, and the edge bisected
    // at the first wall met. (A strip narrower than a quarter step may still be missed.)
    const edge = (inner: number, outward: number, y: number): number | undefined => {
      if (isWall(inner, y)) return undefined;
      let k = 1;
      while (k <= 3 && !isWall(inner + outward * k * step, y)) k++;
      if (k > 3) return undefined;
      const start = isWall(inner - outward * step, y) ? inner : inner - outward * step;
      const fine = step / 4;
      const quarters = 4 * (k + (start === inner ? 0 : 1));
      let j = 1;
      while (j < quarters && !isWall(start + outward * j * fine, y)) j++;
      const wallAt = start + outward * j * fine;
      return bisect(wallAt, wallAt - outward * fine, (x) => isWall(x, y));
    };
    for (const y of heights) {
      const l = edge(s0, -1, y),
        r = edge(s1, 1, y);
      if (l !== undefined) lefts.push(l);
      if (r !== undefined) rights.push(r);
    }
    // Bounded by wall on both sides, measured: a run that merely stops at furniture or a drop is no doorway.
    if (lefts.length === 0 || rights.length === 0) continue;
    const left = median(lefts),
      right = median(rights);
    const width = right - left;
    if (width < opts.size.minWidth || width > opts.size.maxWidth) continue;

    // Bottom: what rays inside the opening meet going down (a threshold or the floor). Rays at
    // three depths, the longest kept: a leaf fills some depth of the slab, never all of it.
    const sMid = (left + right) / 2;
    const drop = farthest((depth) => cast(sMid, floor + 0.5, depth, 0, -1, 0, 1));
    let bottom = drop === undefined ? floor : floor + 0.5 - drop;
    // Walls drawn from the finished floor level over a slab modelled without its screed stand a few
    // centimetres above what the rays meet: the doorway, like the wall, begins at the finished floor.
    const ul = undersideAt(left - step / 2),
      ur = undersideAt(right + step / 2);
    if (ul !== undefined && ur !== undefined && Math.abs(ul - ur) <= opts.maxScreed / 4) {
      const finished = Math.min(ul, ur);
      if (finished > bottom + tol && finished <= bottom + opts.maxScreed) bottom = finished;
    }
    // Top: the lintel's underside, found on the face; or, for an opening up to the ceiling, the ceiling.
    const tops: number[] = [];
    let lintels = 0;
    for (const s of [left + width / 4, sMid, right - width / 4]) {
      let y = bottom + opts.size.minHeight;
      while (y <= bottom + opts.size.maxHeight + step && !isWall(s, y)) y += step;
      if (y <= bottom + opts.size.maxHeight + step) {
        tops.push(bisect(y, y - step, (yy) => isWall(s, yy)));
        lintels++;
      } else {
        const up = farthest((depth) => cast(s, bottom + 1, depth, 0, 1, 0, opts.size.maxHeight));
        if (up === undefined) continue;
        tops.push(bottom + 1 + up);
        // A lintel thinner than the probe step (a casing's head) is found by the ray going up.
        if (isWall(s, bottom + 1 + up + 2 * tol)) lintels++;
      }
    }
    // A lintel met by at least two of the three probes.
    if (tops.length === 0 || (mustBeFramed && lintels < 2)) continue;
    const top = median(tops);
    const height = top - bottom;
    if (height < opts.size.minHeight || height > opts.size.maxHeight) continue;

    const dx = Math.max(0, left, -right),
      dy = Math.max(0, bottom - gazePoint[1], gazePoint[1] - top);
    return {
      corners: [at(left, bottom), at(right, bottom), at(right, top), at(left, top)],
      thickness,
      lateral: Math.hypot(dx, dy),
      edgeSpread: Math.max(spread(lefts), spread(rights), spread(tops)),
    };
  }
  return 'no_opening_near_gaze';
}

/**
 * The wall's thickness and, when the mesh has groups, which groups make up the wall. Probed from
 * the points the fan hit on the face itself: the thickness is the deepest back face that at least
 * a quarter of the probes agree on (a leaf flush with the face answers with its own, smaller
 * thickness); when most probes find no back face, the wall is a single surface (thickness 0), as
 * in models that draw walls as planes. The wall's groups are those whose probes measure that
 * thickness: a door's group, whose leaf is thinner, is not wall even where its frame lines the
 * reveals flush with both faces. (A leaf as thick as the wall and flush with both faces is wall by
 * this measure; `findOpeningInWall` tells it apart by its outline.)
 */
function measureWall(
  plane: WallPlane,
  groups: Uint32Array | undefined,
  depthBehind: (p: ReadonlyVec3) => number | undefined,
  tol: number,
): { thickness: number; wallGroups?: ReadonlySet<number> } {
  const { normal: n, offset, points, triangles } = plane;
  const count = points.length / 3;
  const stride = Math.max(1, Math.floor(count / 64));
  const probes: { group: number; depth: number | undefined }[] = [];
  for (let k = 0; k < count; k += stride) {
    const p: Vec3 = [points[k * 3]!, points[k * 3 + 1]!, points[k * 3 + 2]!];
    // Only points on the face itself: a leaf or casing standing off the face would measure itself.
    if (Math.abs(n[0] * p[0] + n[2] * p[2] - offset) > tol) continue;
    probes.push({ group: groups ? groups[triangles[k]!]! : 0, depth: depthBehind(p) });
  }
  const depths = probes.flatMap((p) => (p.depth === undefined ? [] : [p.depth])).sort((a, b) => b - a);
  let thickness = 0;
  if (probes.length > 0 && depths.length >= 0.4 * probes.length) {
    thickness = depths[depths.length >> 1]!;
    // Groups of depths within 1 cm of each other, deepest first.
    for (const { from, to } of runsWithinGap(depths, 0.01)) {
      if (to - from >= Math.max(3, 0.25 * depths.length)) {
        thickness = depths[(from + to) >> 1]!;
        break;
      }
    }
  }
  if (!groups) return { thickness };
  const agrees = new Map<number, number>();
  for (const p of probes) {
    const fits = thickness === 0 ? p.depth === undefined : p.depth !== undefined && Math.abs(p.depth - thickness) <= 0.01;
    if (fits) agrees.set(p.group, (agrees.get(p.group) ?? 0) + 1);
  }
  const wall = new Set<number>();
  for (const [group, count] of agrees) if (count >= Math.max(2, 0.1 * probes.length)) wall.add(group);
  if (wall.size === 0) return { thickness };
  return { thickness, wallGroups: wall };
}
