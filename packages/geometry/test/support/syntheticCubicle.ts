/**
 * A toilet cubicle as some BIM models draw it: a 25 mm partition standing on legs, and a door leaf
 * exactly as thick as the partition, flush with both its faces, filling the partition's hole and
 * reaching the floor. Leaf and partition are different parts of the model (`groups`), which is all
 * that tells them apart. Y-up, the partition's viewer face at z = 0, the viewer on the +z side.
 */
import { addBox, createSoup, toMesh, type Point3, type Soup, type SyntheticMesh } from './syntheticWall.js';
import type { ExpectedOpening } from './syntheticWall.js';

/** Options of {@link buildCubicleScene}. */
export interface CubicleSceneOptions {
  /** The floor slab (top at y = 0); without it, as in a storey modelled without its slab. */
  floor: boolean;
  /** Bottom of the partition (m): it stands on legs. */
  partitionBottom: number;
  /** Top of the partition (m). */
  partitionTop: number;
  /** The leaf's (or panel's) rectangle in the partition: x from `x0` to `x1`, y from `y0` to `y1`. */
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** The partition's hole reaches down to its bottom (a door); false: a panel in a hole with a sill below. */
  holeToBottom: boolean;
}

export const CUBICLE_SCENE_DEFAULTS: Readonly<CubicleSceneOptions> = {
  floor: true,
  partitionBottom: 0.5,
  partitionTop: 1.8,
  x0: -0.4065,
  x1: 0.4065,
  y0: 0,
  y1: 1.525,
  holeToBottom: true,
};

/** Partition thickness (m), and so the leaf's. */
export const PARTITION = 0.025;

export interface CubicleScene {
  mesh: SyntheticMesh & { groups: Uint32Array };
  /** The leaf's outline on the viewer face, down to the floor. */
  expected: ExpectedOpening;
}

/** Adds what `build` adds as one part of the model: its triangles get the next group number. */
function addPart(soup: Soup, groups: number[], build: (soup: Soup) => void): void {
  const first = soup.indices.length / 3;
  const part = groups.length === 0 ? 0 : groups[groups.length - 1]! + 1;
  build(soup);
  for (let t = first; t < soup.indices.length / 3; t++) groups.push(part);
}

/**
 * The partition x ∈ [−2, 2] with its leaf, two cubicle sides behind it, the room's back wall and,
 * by default, the floor. Every box is a part of its own.
 *
 * @example
 * ```ts
 * const { mesh, expected } = buildCubicleScene({ floor: false });
 * ```
 */
export function buildCubicleScene(options: Partial<CubicleSceneOptions> = {}): CubicleScene {
  const o = { ...CUBICLE_SCENE_DEFAULTS, ...options };
  const soup = createSoup();
  const groups: number[] = [];
  const z0 = -PARTITION;
  if (o.floor) addPart(soup, groups, (s) => addBox(s, [-3, -0.2, -3], [3, 0, 4]));
  addPart(soup, groups, (s) => {
    const holeBottom = o.holeToBottom ? o.partitionBottom : o.y0;
    addBox(s, [-2, o.partitionBottom, z0], [o.x0, o.partitionTop, 0]);
    addBox(s, [o.x1, o.partitionBottom, z0], [2, o.partitionTop, 0]);
    if (o.y1 < o.partitionTop) addBox(s, [o.x0, o.y1, z0], [o.x1, o.partitionTop, 0]);
    if (holeBottom > o.partitionBottom) addBox(s, [o.x0, o.partitionBottom, z0], [o.x1, holeBottom, 0]);
  });
  addPart(soup, groups, (s) => addBox(s, [o.x0, o.y0, z0], [o.x1, o.y1, 0]));
  for (const x of [-1.2, 1.2]) addPart(soup, groups, (s) => addBox(s, [x, o.partitionBottom, -1.5], [x + PARTITION, o.partitionTop, z0]));
  addPart(soup, groups, (s) => addBox(s, [-3, 0, -1.7], [3, 2.7, -1.5]));
  const bottom = o.floor ? 0 : o.y0;
  const at = (x: number, y: number): Point3 => [x, y, 0];
  return {
    mesh: { ...toMesh(soup), groups: Uint32Array.from(groups) },
    expected: { corners: [at(o.x0, bottom), at(o.x1, bottom), at(o.x1, o.y1), at(o.x0, o.y1)], normal: [0, 0, 1] },
  };
}
