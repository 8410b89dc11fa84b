import type { FindOpeningInWallOptions } from './findOpeningInWall.js';
import { bisect, median, spread } from './edgeMeasures.js';

/** Probes of one wall face, in face coordinates: `s` along the face (the viewer's right), `y` up. */
export interface WallFaceProbe {
  /** The part whose surface lies on the face at (s, y), if any. */
  partAt(s: number, y: number): number | undefined;
  /** Whether wall stands at (s, y), counting as the wall's own only the parts `ofWall` accepts. */
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

/** Options of {@link findFlushLeaf}: those of `findOpeningInWall` it shares. */
export type FindFlushLeafOptions = Pick<FindOpeningInWallOptions, 'gridStep' | 'faceTolerance' | 'maxFloorDrop' | 'minDrop' | 'maxScreed' | 'size'>;

/** A leaf's outline on the face, down to what it stands on (face coordinates, m). */
export interface FlushLeaf {
  left: number;
  right: number;
  bottom: number;
  top: number;
  /** Largest disagreement (m) between a side's measurements at different heights. */
  edgeSpread: number;
}

/**
 * The doorway closed by a leaf as thick as its wall and flush with both its faces (a cubicle door
 * in its partition), which measures like wall and so hides the opening it closes. The part on the
 * face at (0, `gazeY`) is such a leaf when it is one of several parts of the wall, its outline is a
 * door-sized rectangle, the wall's other parts stand beside both its sides and above its head, and
 * it stands on the floor in front of the wall (or, with no floor in reach, as in a storey modelled
 * without its slab, on nothing: the doorway then ends where the leaf does).
 *
 * @example
 * ```ts
 * const leaf = findFlushLeaf(probe, { parts, mid: 0.0125 }, 0.8, 1.6, FIND_OPENING_IN_WALL_DEFAULTS);
 * if (leaf) leaf.right - leaf.left; // the doorway's width
 * ```
 */
export function findFlushLeaf(
  face: WallFaceProbe,
  wall: FlushLeafWall,
  gazeY: number,
  eyeY: number,
  opts: FindFlushLeafOptions,
): FlushLeaf | undefined {
  if (wall.parts.size < 2) return undefined;
  const part = face.partAt(0, gazeY);
  if (part === undefined || !wall.parts.has(part)) return undefined;
  const onLeaf = (s: number, y: number): boolean => face.partAt(s, y) === part;
  // From a point on the leaf, its edge in direction (ds, dy): walked in half grid steps, then bisected.
  const walk = opts.gridStep / 2;
  const edge = (s: number, y: number, ds: number, dy: number, limit: number): number | undefined => {
    let k = 1;
    while (k * walk <= limit && onLeaf(s + ds * k * walk, y + dy * k * walk)) k++;
    if (k * walk > limit) return undefined;
    const t = bisect((k - 1) * walk, k * walk, (t) => onLeaf(s + ds * t, y + dy * t));
    return ds !== 0 ? s + ds * t : y + dy * t;
  };
  const { minWidth, maxWidth, minHeight, maxHeight } = opts.size;
  const l0 = edge(0, gazeY, -1, 0, maxWidth), r0 = edge(0, gazeY, 1, 0, maxWidth);
  if (l0 === undefined || r0 === undefined) return undefined;
  const sMid = (l0 + r0) / 2;
  if (!onLeaf(sMid, gazeY)) return undefined;
  const top = edge(sMid, gazeY, 0, 1, maxHeight), low = edge(sMid, gazeY, 0, -1, maxHeight);
  if (top === undefined || low === undefined) return undefined;
  // A leaf is a rectangle: its sides measure alike a quarter and three quarters of the way up.
  const lefts = [l0], rights = [r0];
  for (const f of [0.25, 0.75]) {
    const y = low + f * (top - low);
    if (!onLeaf(sMid, y)) return undefined;
    const l = edge(sMid, y, -1, 0, maxWidth), r = edge(sMid, y, 1, 0, maxWidth);
    if (l === undefined || r === undefined) return undefined;
    lefts.push(l);
    rights.push(r);
  }
  const left = median(lefts), right = median(rights);
  const edgeSpread = Math.max(spread(lefts), spread(rights));
  if (right - left < minWidth || right - left > maxWidth || edgeSpread > 2 * opts.faceTolerance) return undefined;

  // Framed by the wall's other parts: beside both sides and above the head.
  const others = (p: number) => p !== part && wall.parts.has(p);
  const beyond = 2 * opts.faceTolerance, yMid = (low + top) / 2;
  if (!face.isWall(left - beyond, yMid, others) || !face.isWall(right + beyond, yMid, others) || !face.isWall(sMid, top + beyond, others)) return undefined;

  // What the leaf stands on, within the floor's reach below the eye. A part that sits on the wall
  // (a panel filling a window) is no leaf. Where a floor runs in front of the wall, the leaf stands
  // on it, clear of it by no more than a build-up. With none in front (a storey modelled without
  // its slab; what is under the leaf is then the top of a wall below), the doorway ends where the leaf does.
  const from = low + 0.01, reach = from - (eyeY - opts.maxFloorDrop);
  const under = reach > 0 ? face.below(sMid, from, wall.mid, reach, part) : undefined;
  if (under && wall.parts.has(under.part)) return undefined;
  const before = reach > 0 ? face.below(sMid, from, -0.3, reach, part) : undefined;
  let bottom = low;
  if (before) {
    if (!under || Math.abs(under.distance - before.distance) > opts.maxScreed || under.distance - 0.01 > opts.maxScreed) return undefined;
    bottom = from - under.distance;
  }
  const fall = eyeY - bottom;
  if (fall < opts.minDrop || fall > opts.maxFloorDrop || top - bottom < minHeight || top - bottom > maxHeight) return undefined;
  return { left, right, bottom, top, edgeSpread };
}
