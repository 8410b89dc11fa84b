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
  /** One leaf, or two meeting in the middle (a double door), each a part of its own. */
  leaves: 1 | 2;
}

/** Defaults of {@link buildCubicleScene}: Office_A's cubicles (a 0.813 m leaf, 1.525 m high, under a partition on 0.5 m legs). */
export const CUBICLE_SCENE_DEFAULTS: Readonly<CubicleSceneOptions> = {
  floor: true,
  partitionBottom: 0.5,
  partitionTop: 1.8,
  x0: -0.4065,
  x1: 0.4065,
  y0: 0,
  y1: 1.525,
  holeToBottom: true,
  leaves: 1,
};

/** Partition thickness (m), and so the leaf's. */
export const PARTITION = 0.025;

/** A scene built of parts, and the opening a detector should find in it. */
export interface CubicleScene {
  /** Triangles with the part each belongs to (`groups`), as `sceneTriangles` gives a model's nodes. */
  mesh: SyntheticMesh & { groups: Uint32Array };
  /** The leaf's outline on the viewer face, down to the floor. */
  expected: ExpectedOpening;
}

/** A soup whose triangles remember the part they were added in. */
interface PartsSoup {
  soup: Soup;
  groups: number[];
  parts: number;
}

/** Adds what `build` adds as one part of the model: its triangles get the next part number. */
function addPart(scene: PartsSoup, build: (soup: Soup) => void): void {
  const first = scene.soup.indices.length / 3;
  const part = scene.parts++;
  build(scene.soup);
  for (let t = first; t < scene.soup.indices.length / 3; t++) scene.groups.push(part);
}

function toGroupedMesh(scene: PartsSoup): SyntheticMesh & { groups: Uint32Array } {
  return { ...toMesh(scene.soup), groups: Uint32Array.from(scene.groups) };
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
  const scene: PartsSoup = { soup: createSoup(), groups: [], parts: 0 };
  const z0 = -PARTITION;
  if (o.floor) addPart(scene, (s) => addBox(s, [-3, -0.2, -3], [3, 0, 4]));
  addPart(scene, (s) => {
    const holeBottom = o.holeToBottom ? o.partitionBottom : o.y0;
    addBox(s, [-2, o.partitionBottom, z0], [o.x0, o.partitionTop, 0]);
    addBox(s, [o.x1, o.partitionBottom, z0], [2, o.partitionTop, 0]);
    if (o.y1 < o.partitionTop) addBox(s, [o.x0, o.y1, z0], [o.x1, o.partitionTop, 0]);
    if (holeBottom > o.partitionBottom) addBox(s, [o.x0, o.partitionBottom, z0], [o.x1, holeBottom, 0]);
  });
  if (o.leaves === 1) addPart(scene, (s) => addBox(s, [o.x0, o.y0, z0], [o.x1, o.y1, 0]));
  else {
    const mid = (o.x0 + o.x1) / 2;
    addPart(scene, (s) => addBox(s, [o.x0, o.y0, z0], [mid, o.y1, 0]));
    addPart(scene, (s) => addBox(s, [mid, o.y0, z0], [o.x1, o.y1, 0]));
  }
  for (const x of [-1.2, 1.2]) addPart(scene, (s) => addBox(s, [x, o.partitionBottom, -1.5], [x + PARTITION, o.partitionTop, z0]));
  addPart(scene, (s) => addBox(s, [-3, 0, -1.7], [3, 2.7, -1.5]));
  const bottom = o.floor ? 0 : o.y0;
  const at = (x: number, y: number): Point3 => [x, y, 0];
  return {
    mesh: toGroupedMesh(scene),
    expected: { corners: [at(o.x0, bottom), at(o.x1, bottom), at(o.x1, o.y1), at(o.x0, o.y1)], normal: [0, 0, 1] },
  };
}

/**
 * An ordinary wall of parts, no door: three collinear segments as thick as each other, the middle
 * one 0.9 m wide and 2.1 m high, standing on the floor under a beam part that runs over all three,
 * flush with both faces. The middle segment has a leaf's size and shape, and wall on both sides and
 * above, but no single part around it.
 */
export function buildSegmentedWallScene(): SyntheticMesh & { groups: Uint32Array } {
  const scene: PartsSoup = { soup: createSoup(), groups: [], parts: 0 };
  const t = 0.2;
  addPart(scene, (s) => addBox(s, [-4, -0.2, -4], [4, 0, 4]));
  addPart(scene, (s) => addBox(s, [-3, 0, -t], [-0.45, 2.1, 0]));
  addPart(scene, (s) => addBox(s, [-0.45, 0, -t], [0.45, 2.1, 0]));
  addPart(scene, (s) => addBox(s, [0.45, 0, -t], [3, 2.1, 0]));
  addPart(scene, (s) => addBox(s, [-3, 2.1, -t], [3, 2.7, 0]));
  return toGroupedMesh(scene);
}
