import { bisect, median, spread } from './edgeMeasures.js';

/** Probes of one wall face, in face coordinates: `s` along the face (the viewer's right), `y` up. */
export interface WallFaceProbe {
  /** The part whose surface lies on the face at (s, y), if any. */
  partAt(s: number, y: number): number | undefined;
  /**
   * Whether wall stands at (s, y): material of a part `ofWall` accepts at both faces, or solid of
   * any part running on deeper than the wall is thick (a cross wall abutting it end-on).
   */
  isWall(s: number, y: number, ofWall: (part: number) => boolean): boolean;
  /** The first part other than `except` met going down from (s, y), `depth` behind the face, within `max`. */
  below(s: number, y: number, depth: number, max: number, except: number): { distance: number; part: number } | undefined;
}

/** The wall a leaf is looked for in. */
export interface FlushLeafWall {
  /** The parts that measure as the wall (a flush leaf as thick as the wall among them). */
  parts: ReadonlySet<number>;
  /** Depth (m) of the wall's middle behind the face. */
  mid: number;
}

/** Where the user looks from, in face coordinates. */
export interface FlushLeafView {
  /** Height (m) where the gaze meets the face; the part there is the candidate leaf. */
  gazeY: number;
  /** Height (m) of the eye. */
  eyeY: number;
}

/** Options of {@link findFlushLeaf}. */
export interface FindFlushLeafOptions {
  /** Step (m) of the walk along the leaf to its edges, which are then bisected. */
  walkStep: number;
  /**
   * Sizes of one leaf: narrower and lower than the door-opening limits, since a flush part larger
   * than any leaf is a panel of the wall.
   */
  leafSize: { minWidth: number; maxWidth: number; minHeight: number; maxHeight: number };
  /** Most (m) a side may measure differently at different heights: a leaf is a rectangle. */
  squareness: number;
  /** How far (m) beyond the leaf's sides and head the host part is probed. */
  hostProbe: number;
  /** How far (m) in front of the wall the floor the user stands on is probed. */
  floorProbeFront: number;
  /** Farthest (m) below the eye a floor may lie. */
  maxFloorDrop: number;
  /** Nearest (m) below the eye the bottom of a door may lie. */
  minDrop: number;
  /** Most (m) a leaf may stand clear of its floor (a build-up left out, an undercut). */
  maxScreed: number;
}

/** Defaults of {@link findFlushLeaf}. */
export const FIND_FLUSH_LEAF_DEFAULTS: Readonly<FindFlushLeafOptions> = {
  walkStep: 0.05,
  leafSize: { minWidth: 0.4, maxWidth: 1.3, minHeight: 1.2, maxHeight: 3.0 },
  squareness: 0.01,
  hostProbe: 0.01,
  floorProbeFront: 0.3,
  maxFloorDrop: 3,
  minDrop: 1,
  maxScreed: 0.2,
};

/** A leaf's outline on the face, down to what it stands on (face coordinates, m). */
export interface FlushLeaf {
  left: number;
  right: number;
  bottom: number;
  top: number;
  /** Largest disagreement (m) between a side's measurements at different heights. */
  edgeSpread: number;
}

// Floor probes start this far (m) above the leaf's underside: inside the leaf, out of any floor.
const FLOOR_PROBE_LIFT = 0.01;

/**
 * The doorway closed by a leaf as thick as its wall and flush with both its faces (a cubicle door
 * in its partition), which measures like wall and so hides the opening it closes. The part on the
 * face where the gaze meets it is such a leaf when it is one of several parts of the wall, its
 * outline is a rectangle of a leaf's size, one other part (its host: the partition or wall it
 * closes a hole in) stands beside both its sides and above its head, and it stands on the floor in
 * front of the wall (or, with no floor in reach, as in a storey modelled without its slab, on
 * nothing: the doorway then ends where the leaf does). A wall panel between two other walls, or
 * under a beam, has no single host, and a panel filling a window sits on its host: neither is a leaf.
 *
 * @example
 * ```ts
 * const leaf = findFlushLeaf(probe, { parts, mid: 0.0125 }, { gazeY: 0.8, eyeY: 1.6 });
 * if (leaf) leaf.right - leaf.left; // the doorway's width
 * ```
 */
export function findFlushLeaf(
  face: WallFaceProbe,
  wall: FlushLeafWall,
  view: FlushLeafView,
  options: Partial<FindFlushLeafOptions> = {},
): FlushLeaf | undefined {
  const opts = { ...FIND_FLUSH_LEAF_DEFAULTS, ...options };
  const { gazeY, eyeY } = view;
  if (wall.parts.size < 2) return undefined;
  const leaf = face.partAt(0, gazeY);
  if (leaf === undefined || !wall.parts.has(leaf)) return undefined;
  const onLeaf = (s: number, y: number): boolean => face.partAt(s, y) === leaf;
  // From a point on the leaf, its edge in direction (ds, dy): walked, then bisected. Nothing larger
  // than a leaf is walked: a large part of the wall is given up after a metre or so.
  const edge = (s: number, y: number, ds: number, dy: number, limit: number): number | undefined => {
    const step = opts.walkStep;
    let k = 1;
    while (k * step <= limit && onLeaf(s + ds * k * step, y + dy * k * step)) k++;
    if (k * step > limit) return undefined;
    const along = bisect((k - 1) * step, k * step, (d) => onLeaf(s + ds * d, y + dy * d));
    return ds !== 0 ? s + ds * along : y + dy * along;
  };
  const { minWidth, maxWidth, minHeight, maxHeight } = opts.leafSize;
  const l0 = edge(0, gazeY, -1, 0, maxWidth);
  if (l0 === undefined) return undefined;
  const r0 = edge(0, gazeY, 1, 0, maxWidth + l0);
  if (r0 === undefined) return undefined;
  const sMid = (l0 + r0) / 2;
  if (!onLeaf(sMid, gazeY)) return undefined;
  const top = edge(sMid, gazeY, 0, 1, maxHeight);
  if (top === undefined) return undefined;
  const low = edge(sMid, gazeY, 0, -1, maxHeight - (top - gazeY));
  if (low === undefined) return undefined;
  // A leaf is a rectangle: its sides measure alike a quarter and three quarters of the way up.
  const lefts = [l0],
    rights = [r0];
  for (const f of [0.25, 0.75]) {
    const y = low + f * (top - low);
    if (!onLeaf(sMid, y)) return undefined;
    const l = edge(sMid, y, -1, 0, maxWidth),
      r = edge(sMid, y, 1, 0, maxWidth);
    if (l === undefined || r === undefined) return undefined;
    lefts.push(l);
    rights.push(r);
  }
  const left = median(lefts),
    right = median(rights);
  const edgeSpread = Math.max(spread(lefts), spread(rights));
  if (right - left < minWidth || right - left > maxWidth || edgeSpread > opts.squareness) return undefined;

  // One host around it: the same part of the wall beside both sides and above the head.
  const beyond = opts.hostProbe,
    yMid = (low + top) / 2;
  const host = face.partAt(left - beyond, yMid);
  if (host === undefined || host === leaf || !wall.parts.has(host)) return undefined;
  const hostAt = (s: number, y: number) => face.partAt(s, y) === host && face.isWall(s, y, (p) => p === host);
  if (!hostAt(left - beyond, yMid) || !hostAt(right + beyond, yMid) || !hostAt(sMid, top + beyond)) return undefined;

  // What the leaf stands on, within the floor's reach below the eye. A part that sits on the wall
  // (a panel filling a window) is no leaf. Where a floor runs in front of the wall, the leaf stands
  // on it, clear of it by no more than a build-up. With none in front (a storey modelled without
  // its slab; what is under the leaf is then the top of a wall below), the doorway ends where the leaf does.
  const from = low + FLOOR_PROBE_LIFT,
    reach = from - (eyeY - opts.maxFloorDrop);
  const under = reach > 0 ? face.below(sMid, from, wall.mid, reach, leaf) : undefined;
  if (under && wall.parts.has(under.part)) return undefined;
  const before = reach > 0 ? face.below(sMid, from, -opts.floorProbeFront, reach, leaf) : undefined;
  let bottom = low;
  if (before) {
    if (!under || under.distance - FLOOR_PROBE_LIFT > opts.maxScreed || Math.abs(under.distance - before.distance) > opts.maxScreed)
      return undefined;
    bottom = from - under.distance;
  }
  const fall = eyeY - bottom;
  if (fall < opts.minDrop || fall > opts.maxFloorDrop || top - bottom < minHeight || top - bottom > maxHeight) return undefined;
  return { left, right, bottom, top, edgeSpread };
}
