import type { Bounds } from '@arsession/geometry';
import { emptyBounds, growBounds, unionBounds } from '../scene/growBounds.js';
import { newIdentityMatrix } from '../scene/identityMatrix.js';
import type { SceneMesh } from '../scene/SceneData.js';
import type { Companion } from './drawnTogether.js';
import type { ElementGroup } from './elementGroups.js';

/** Options of {@link groupLayers}. */
export interface GroupLayersOptions {
  /** A split is made only where each layer is at most this share of the whole group's depth. */
  thinnerShare: number;
}

/** Defaults of {@link groupLayers}: a quarter thinner at least, or one stand-in serves as well. */
export const GROUP_LAYERS_DEFAULTS: Readonly<GroupLayersOptions> = { thinnerShare: 0.75 };

/**
 * An element group (see `elementGroups`) split in two layers across its depth, to stand as two
 * stand-ins rather than one: a window 25 cm deep whose frame stands behind its glass and mullions
 * is one sheet 12 cm from parts of it, or the glass layer's sheet and the frame's rim, each within
 * a few centimetres. The depth is the thinnest side of the group's box in the lead's frame (every
 * member where it is drawn beside the lead); each mesh goes wholly into one layer, and the split
 * is the one whose thicker layer is thinnest. Each layer is led by a mesh drawn once beside the
 * group's lead (the lead itself in its own layer), whose companions (`companions`, see
 * `drawnTogether`) hold the rest of its layer as the lead's do, so the layer's union can be made
 * in its frame. Undefined where no split makes both layers thinner by `thinnerShare`, or no mesh
 * can lead the second layer.
 *
 * @example
 * ```ts
 * groupLayers({ lead: 0, members: [1, 2] }, drawnTogether(scene, isDetail), scene.meshes, uses);
 * // → [{ lead: 0, members: [1] }, { lead: 2, members: [] }]: glass and mullions, then the frame behind
 * ```
 */
export function groupLayers(
  group: ElementGroup,
  companions: ReadonlyMap<number, readonly Companion[]>,
  meshes: readonly Pick<SceneMesh, 'positions'>[],
  uses: ArrayLike<number>,
  options: Partial<GroupLayersOptions> = {},
): [ElementGroup, ElementGroup] | undefined {
  const { thinnerShare } = { ...GROUP_LAYERS_DEFAULTS, ...options };
  const beside = companions.get(group.lead) ?? [];
  // Each mesh's box where it is drawn beside the lead, in the lead's frame (a mesh drawn twice: round both).
  const boxes = new Map<number, Bounds>([[group.lead, growBounds(emptyBounds(), meshes[group.lead]!.positions, 3, newIdentityMatrix())]]);
  for (const c of beside) boxes.set(c.mesh, growBounds(boxes.get(c.mesh) ?? emptyBounds(), meshes[c.mesh]!.positions, 3, c.toFrame));
  if (boxes.size < 2) return undefined;
  const whole = [...boxes.values()].reduce(unionBounds);
  const sides = [0, 1, 2].map((k) => whole.max[k]! - whole.min[k]!);
  const axis = sides.indexOf(Math.min(...sides));
  const depth = sides[axis]!;
  if (!(depth > 0)) return undefined;
  // Front to back by where each mesh begins, then ends.
  const order = [...boxes].sort(([, a], [, b]) => a.min[axis]! - b.min[axis]! || a.max[axis]! - b.max[axis]!);
  const thickness = (from: number, to: number) => {
    let low = Number.POSITIVE_INFINITY,
      high = Number.NEGATIVE_INFINITY;
    for (let i = from; i < to; i++) {
      low = Math.min(low, order[i]![1].min[axis]!);
      high = Math.max(high, order[i]![1].max[axis]!);
    }
    return high - low;
  };
  let split = 0,
    thickest = Number.POSITIVE_INFINITY;
  for (let k = 1; k < order.length; k++) {
    const t = Math.max(thickness(0, k), thickness(k, order.length));
    if (t < thickest) [split, thickest] = [k, t];
  }
  if (thickest > depth * thinnerShare) return undefined;
  const layers = [order.slice(0, split), order.slice(split)].map((layer) => layer.map(([m]) => m));
  const [own, other] = layers[0]!.includes(group.lead) ? [layers[0]!, layers[1]!] : [layers[1]!, layers[0]!];
  const count = (list: readonly Companion[], m: number) => list.filter((c) => c.mesh === m).length;
  // A mesh drawn once beside the lead, as often as it, whose own companions hold the rest of its layer as the lead's do.
  const mayLead = (m: number) =>
    count(beside, m) === 1 &&
    uses[m] === uses[group.lead] &&
    other.every((k) => k === m || count(companions.get(m) ?? [], k) === count(beside, k));
  const second = [...other].sort((a, b) => a - b).find(mayLead);
  if (second === undefined) return undefined;
  return [
    { lead: group.lead, members: own.filter((m) => m !== group.lead) },
    { lead: second, members: other.filter((m) => m !== second) },
  ];
}
