/**
 * Synthetic test scenes for door detection: triangle soups built from boxes and quads, Y-up,
 * right-handed, metres.
 *
 * Coordinates are built in float64 world space (scene coordinates plus the scene's `origin`), and
 * the returned mesh stores `world − offset` in float32 with `offset = origin`: this is how a model
 * far from the origin (georeferenced, say 500 km away) keeps centimetre precision in a Float32Array.
 */

/** A point or direction in metres. */
export type Point3 = [number, number, number];

/** A triangle mesh as the detector takes it: world = positions + offset (Y-up). */
export interface SyntheticMesh {
  positions: Float32Array;
  indices: Uint32Array;
  offset: Point3;
}

/** A triangle soup under construction, in float64 world coordinates. */
export interface Soup {
  /** Added to every point given to {@link addBox} and {@link addQuad}; the mesh's default offset. */
  origin: Point3;
  /** World xyz, three numbers per vertex (float64). */
  positions: number[];
  indices: number[];
}

/**
 * A rotation about the vertical (Y) axis through the point (x, z) = `pivot`, by `angle` radians (right-handed: +angle turns +x toward
 * −z).
 */
export interface YawAbout {
  angle: number;
  pivot: [number, number];
}

/** An empty soup whose points are shifted by `origin` (scene → world). */
export function createSoup(origin: readonly number[] = [0, 0, 0]): Soup {
  return { origin: [origin[0] ?? 0, origin[1] ?? 0, origin[2] ?? 0], positions: [], indices: [] };
}

function pushVertex(soup: Soup, p: readonly number[]): number {
  const index = soup.positions.length / 3;
  soup.positions.push(p[0]! + soup.origin[0], p[1]! + soup.origin[1], p[2]! + soup.origin[2]);
  return index;
}

function rotate(p: Point3, yaw: YawAbout | undefined): Point3 {
  if (!yaw) return p;
  const c = Math.cos(yaw.angle),
    s = Math.sin(yaw.angle);
  const dx = p[0] - yaw.pivot[0],
    dz = p[2] - yaw.pivot[1];
  return [yaw.pivot[0] + c * dx + s * dz, p[1], yaw.pivot[1] - s * dx + c * dz];
}

// Box corner k has x = max if bit 0, y = max if bit 1, z = max if bit 2. Each face is listed
// counter-clockwise as seen from outside, so (b − a) × (c − a) points out of the box.
const BOX_FACES: readonly (readonly [number, number, number, number])[] = [
  [0, 4, 6, 2], // −x
  [1, 3, 7, 5], // +x
  [0, 1, 5, 4], // −y
  [2, 6, 7, 3], // +y
  [0, 2, 3, 1], // −z
  [4, 5, 7, 6], // +z
];

/**
 * Adds an axis-aligned box `min … max` (scene coordinates), optionally turned about a vertical axis:
 * 8 shared vertices, 12 triangles wound outward. Boxes with a zero extent are refused (use a quad).
 */
export function addBox(soup: Soup, min: readonly number[], max: readonly number[], yaw?: YawAbout): void {
  for (let k = 0; k < 3; k++) {
    if (!(max[k]! > min[k]!)) throw new RangeError(`addBox: empty extent on axis ${k}: [${min[k]}, ${max[k]}]`);
  }
  const first = soup.positions.length / 3;
  for (let corner = 0; corner < 8; corner++) {
    const p: Point3 = [corner & 1 ? max[0]! : min[0]!, corner & 2 ? max[1]! : min[1]!, corner & 4 ? max[2]! : min[2]!];
    pushVertex(soup, rotate(p, yaw));
  }
  for (const [a, b, c, d] of BOX_FACES) {
    soup.indices.push(first + a, first + b, first + c, first + a, first + c, first + d);
  }
}

/**
 * Adds the quad a → b → c → d (scene coordinates, planar, counter-clockwise as seen from the side
 * its normal points to): two triangles, or four when `doubleSided` (the same four vertices wound
 * both ways, as a zero-thickness wall is exported).
 */
export function addQuad(soup: Soup, corners: readonly [Point3, Point3, Point3, Point3], doubleSided = true): void {
  const [a, b, c, d] = corners.map((p) => pushVertex(soup, p)) as [number, number, number, number];
  soup.indices.push(a, b, c, a, c, d);
  if (doubleSided) soup.indices.push(a, c, b, a, d, c);
}

/** An axis-aligned rectangle in the plane z = `z`, facing +z, double-sided. */
export function addRectZ(soup: Soup, x0: number, x1: number, y0: number, y1: number, z: number): void {
  if (!(x1 > x0 && y1 > y0)) throw new RangeError(`addRectZ: empty rectangle [${x0}, ${x1}] × [${y0}, ${y1}]`);
  addQuad(soup, [
    [x0, y0, z],
    [x1, y0, z],
    [x1, y1, z],
    [x0, y1, z],
  ]);
}

/** The soup as a detector mesh: float32 `world − offset`, with `offset` defaulting to the soup's origin. */
export function toMesh(soup: Soup, offset: readonly number[] = soup.origin): SyntheticMesh {
  const o: Point3 = [offset[0] ?? 0, offset[1] ?? 0, offset[2] ?? 0];
  const positions = new Float32Array(soup.positions.length);
  for (let i = 0; i < soup.positions.length; i++) positions[i] = soup.positions[i]! - o[i % 3]!;
  return { positions, indices: Uint32Array.from(soup.indices), offset: o };
}

// ---------------------------------------------------------------------------------------------
// The door-wall scene.

export type LeafKind = 'none' | 'closed' | 'flushFront' | 'flushBack' | 'glass' | 'open';
export type WindowKind = 'none' | 'beside' | 'only';

/** Options of {@link buildWallScene}; every one is independent of the others and combinable. */
export interface WallSceneOptions {
  /** Door-wall thickness (m); its viewer face is z = 0, its back face z = −thickness. 0 = double-sided quads. */
  thickness: number;
  /** Left edge of the door hole (m). */
  doorX: number;
  /** Width of the door hole (m); forced to 1.6 by `doubleDoor`. */
  doorWidth: number;
  /** Height of the door hole (m); forced to the ceiling (2.7) by `fullHeight`. */
  doorHeight: number;
  /** Added to every point of the scene (and to the expected corners); also the mesh's offset. */
  origin: Point3;
  /** A ceiling slab with its underside at y = 2.7. */
  ceiling: boolean;
  /** The floor slab (top at y = 0); without it the walls stand on nothing, as in models that leave a storey's slab out. */
  floor: boolean;
  leaf: LeafKind;
  /** Architraves 0.07 wide × 0.02 deep on the viewer face around the hole (left, right, top). */
  casing: boolean;
  /** 0.03 boards lining the jambs and head inside the hole; the expected opening is the clear one inside them. */
  lining: boolean;
  /** 0.1 high × 0.015 deep boards on the viewer face at the floor, left and right of the hole. */
  skirting: boolean;
  /** A 0.2 wall on the viewer side, x ∈ [doorX − 0.2, doorX], z ∈ [0, 3], its face flush with the left jamb. */
  perpendicularWall: boolean;
  /** A 0.6 × 0.9 × 0.6 box against the viewer face right of the door. */
  cabinet: boolean;
  window: WindowKind;
  /** A 1.6 wide hole; with `leaf: 'closed'` two 0.8 leaves meeting in the middle, otherwise no leaf. */
  doubleDoor: boolean;
  /** The hole goes up to the ceiling (no lintel). */
  fullHeight: boolean;
  /** No hole at all. */
  blank: boolean;
  /**
   * The door wall starts this far (m) above the floor slab, as walls drawn from the finished floor
   * level over a slab modelled without its screed; the doorway starts there too.
   */
  wallBase: number;
  /**
   * The door wall ends at the right jamb, where a 0.15 cross wall runs away from the viewer
   * (x ∈ [right jamb, +0.15], z ∈ [−3, 0]): its end face, flush with the door wall's face, is the jamb.
   */
  crossWallAtJamb: boolean;
  /**
   * A 2 cm joint through the door wall, floor to ceiling, 6 cm right of the right jamb: a strip of
   * wall narrower than the detector's grid step stands between the doorway and the gap.
   */
  jointBesideJamb: boolean;
  /**
   * Two 0.9 high cabinets 1 m in front of the wall, either side of a 1 m way through in line with
   * the door (a kitchen run with a gap): their fronts make a plane with a full-height gap in it.
   */
  cabinetsWithGap: boolean;
  /** z of the viewer-side face of the wall behind the viewer (it is 0.2 thick, beyond this z). */
  wallBehindViewerZ: number;
}

export const WALL_SCENE_DEFAULTS: Readonly<WallSceneOptions> = {
  thickness: 0.2,
  doorX: -0.45,
  doorWidth: 0.9,
  doorHeight: 2.1,
  origin: [0, 0, 0],
  ceiling: true,
  floor: true,
  leaf: 'none',
  casing: false,
  lining: false,
  skirting: false,
  perpendicularWall: false,
  cabinet: false,
  window: 'none',
  doubleDoor: false,
  fullHeight: false,
  blank: false,
  wallBase: 0,
  crossWallAtJamb: false,
  jointBesideJamb: false,
  cabinetsWithGap: false,
  wallBehindViewerZ: 4,
};

/** Scene constants (m). */
export const ROOM_HEIGHT = 2.7;
export const SLAB = 0.2;
export const WALL_HALF_LENGTH = 4;
export const FAR_WALL_Z = -4;
export const LINING = 0.03;
export const CASING_WIDTH = 0.07;
export const CASING_DEPTH = 0.02;
export const SKIRTING_HEIGHT = 0.1;
export const SKIRTING_DEPTH = 0.015;
export const LEAF_THICKNESS = 0.04;
export const GLASS_THICKNESS = 0.01;
/** Gap between a leaf and the floor, and between a leaf and the head of the (clear) opening. */
export const LEAF_GAP = 0.01;

/** The opening a detector should report, in world coordinates (origin included). */
export interface ExpectedOpening {
  /** BL, BR, TR, TL on the viewer face (z = 0 before the origin), seen from +z. */
  corners: [Point3, Point3, Point3, Point3];
  normal: Point3;
}

export interface WallScene {
  mesh: SyntheticMesh;
  /** Undefined when the scene has no door (`blank`, `window: 'only'`). */
  expected: ExpectedOpening | undefined;
  /** The options the scene was built with, defaults filled in and overrides applied (double door, full height). */
  options: WallSceneOptions;
}

interface Hole {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * The wall x ∈ [−4, 4], y ∈ [0, 2.7], z ∈ [−t, 0] minus rectangular holes, as columns: the x axis is
 * cut at every hole edge and each column is filled where no hole covers it (a door gives a left
 * part, a lintel and a right part). Thickness 0 gives double-sided rectangles in z = 0.
 */
function addWallWithHoles(soup: Soup, thickness: number, holes: readonly Hole[], base = 0, end = WALL_HALF_LENGTH): void {
  const xs = [...new Set([-WALL_HALF_LENGTH, end, ...holes.flatMap((h) => [h.x0, h.x1])])]
    .filter((x) => x >= -WALL_HALF_LENGTH && x <= end)
    .sort((a, b) => a - b);
  for (let i = 0; i + 1 < xs.length; i++) {
    const a = xs[i]!,
      b = xs[i + 1]!;
    const covering = holes.filter((h) => h.x0 <= a && h.x1 >= b).sort((p, q) => p.y0 - q.y0);
    let y = base;
    const pieces: [number, number][] = [];
    for (const h of covering) {
      if (h.y0 > y) pieces.push([y, h.y0]);
      y = Math.max(y, h.y1);
    }
    if (y < ROOM_HEIGHT) pieces.push([y, ROOM_HEIGHT]);
    for (const [y0, y1] of pieces) {
      if (thickness > 0) addBox(soup, [a, y0, -thickness], [b, y1, 0]);
      else addRectZ(soup, a, b, y0, y1, 0);
    }
  }
}

/** A slab of boards in the wall's thickness (a box; a rectangle in z = 0 when the wall has no thickness). */
function addInWall(soup: Soup, thickness: number, x0: number, x1: number, y0: number, y1: number): void {
  if (thickness > 0) addBox(soup, [x0, y0, -thickness], [x1, y1, 0]);
  else addRectZ(soup, x0, x1, y0, y1, 0);
}

/** The z range a closed, flush or glass leaf occupies in a wall of `thickness`. */
function leafDepth(leaf: Exclude<LeafKind, 'none' | 'open'>, thickness: number): [number, number] {
  if (leaf === 'flushFront') return [-LEAF_THICKNESS, 0];
  if (thickness === 0) {
    // No thickness to sit in: just behind the plane, 1 cm back.
    return leaf === 'glass' ? [-LEAF_GAP - GLASS_THICKNESS, -LEAF_GAP] : [-LEAF_GAP - LEAF_THICKNESS, -LEAF_GAP];
  }
  if (leaf === 'flushBack') return [-thickness, -thickness + LEAF_THICKNESS];
  const half = (leaf === 'glass' ? GLASS_THICKNESS : LEAF_THICKNESS) / 2;
  return [-thickness / 2 - half, -thickness / 2 + half];
}

/**
 * A room with a door wall in the plane z = 0 (viewer side +z), a floor at y = 0, a ceiling at
 * y = 2.7, a far room behind the door (wall at z = −4), side walls at x = ±4 and a wall behind the
 * viewer (z = 4 by default). Returns the mesh and the opening a detector should find.
 *
 * @example
 * ```ts
 * const { mesh, expected } = buildWallScene({ thickness: 0.1, leaf: 'closed', origin: [5e5, 0, -5e5] });
 * ```
 */
export function buildWallScene(options: Partial<WallSceneOptions> = {}): WallScene {
  const o: WallSceneOptions = { ...WALL_SCENE_DEFAULTS, ...options };
  if (o.doubleDoor) o.doorWidth = 1.6;
  if (o.fullHeight) o.doorHeight = ROOM_HEIGHT - o.wallBase;
  const t = o.thickness;
  if (!(t >= 0)) throw new RangeError(`thickness must be ≥ 0, got ${t}`);
  const soup = createSoup(o.origin);
  const behindZ = o.wallBehindViewerZ;
  const zMax = Math.max(6, behindZ + SLAB + 1.8);

  // Floor and ceiling slabs.
  if (o.floor) addBox(soup, [-6, -SLAB, -6], [6, 0, zMax]);
  if (o.ceiling) addBox(soup, [-6, ROOM_HEIGHT, -6], [6, ROOM_HEIGHT + SLAB, zMax]);

  // The rooms: far wall, side walls, the wall behind the viewer.
  addBox(soup, [-WALL_HALF_LENGTH, 0, FAR_WALL_Z - SLAB], [WALL_HALF_LENGTH, ROOM_HEIGHT, FAR_WALL_Z]);
  addBox(soup, [-WALL_HALF_LENGTH - SLAB, 0, FAR_WALL_Z - SLAB], [-WALL_HALF_LENGTH, ROOM_HEIGHT, behindZ]);
  addBox(soup, [WALL_HALF_LENGTH, 0, FAR_WALL_Z - SLAB], [WALL_HALF_LENGTH + SLAB, ROOM_HEIGHT, behindZ]);
  addBox(soup, [-WALL_HALF_LENGTH - SLAB, 0, behindZ], [WALL_HALF_LENGTH + SLAB, ROOM_HEIGHT, behindZ + SLAB]);

  // The door wall and its holes.
  const hasDoor = !o.blank && o.window !== 'only';
  const x0 = o.doorX,
    x1 = o.doorX + o.doorWidth,
    h = o.doorHeight;
  const holes: Hole[] = [];
  const base = o.wallBase;
  if (hasDoor) holes.push({ x0, x1, y0: base, y1: base + h });
  if (hasDoor && o.jointBesideJamb) holes.push({ x0: x1 + 0.06, x1: x1 + 0.08, y0: base, y1: ROOM_HEIGHT });
  if (!o.blank && o.window === 'beside') holes.push({ x0: x1 + 0.6, x1: x1 + 1.6, y0: 0.9, y1: 2.1 });
  if (!o.blank && o.window === 'only') holes.push({ x0: -0.5, x1: 0.5, y0: 0.9, y1: 2.1 });
  addWallWithHoles(soup, t, holes, base, hasDoor && o.crossWallAtJamb ? x1 : WALL_HALF_LENGTH);
  if (hasDoor && o.crossWallAtJamb) addBox(soup, [x1, 0, -3], [x1 + 0.15, ROOM_HEIGHT, 0]);
  if (o.cabinetsWithGap) {
    const mid = (x0 + x1) / 2;
    addBox(soup, [mid - 2.5, 0, 1], [mid - 0.5, 0.9, 1.6]);
    addBox(soup, [mid + 0.5, 0, 1], [mid + 2.5, 0.9, 1.6]);
  }

  // The clear opening: inside the lining when there is one.
  const lined = hasDoor && o.lining;
  const cx0 = lined ? x0 + LINING : x0,
    cx1 = lined ? x1 - LINING : x1;
  const top = base + (lined ? h - LINING : h);

  if (hasDoor) {
    if (lined) {
      addInWall(soup, t, x0, cx0, base, base + h);
      addInWall(soup, t, cx1, x1, base, base + h);
      addInWall(soup, t, cx0, cx1, top, base + h);
    }

    const leafY0 = base + LEAF_GAP,
      leafY1 = top - LEAF_GAP;
    if (o.doubleDoor) {
      if (o.leaf === 'closed') {
        const [z0, z1] = leafDepth('closed', t);
        const mid = (cx0 + cx1) / 2;
        addBox(soup, [cx0, leafY0, z0], [mid, leafY1, z1]);
        addBox(soup, [mid, leafY0, z0], [cx1, leafY1, z1]);
      }
    } else if (o.leaf === 'open') {
      // Closed it would lie on the viewer face (z ∈ [0, 0.04]); swung 90° about the hinge at the left
      // jamb it stands in front of the wall: x ∈ [cx0 − 0.04, cx0], z ∈ [0, leaf width].
      addBox(soup, [cx0, leafY0, 0], [cx1, leafY1, LEAF_THICKNESS], { angle: -Math.PI / 2, pivot: [cx0, 0] });
    } else if (o.leaf !== 'none') {
      const [z0, z1] = leafDepth(o.leaf, t);
      addBox(soup, [cx0, leafY0, z0], [cx1, leafY1, z1]);
    }

    if (o.casing) {
      const casingTop = Math.min(base + h + CASING_WIDTH, ROOM_HEIGHT);
      addBox(soup, [x0 - CASING_WIDTH, 0, 0], [x0, casingTop, CASING_DEPTH]);
      addBox(soup, [x1, 0, 0], [x1 + CASING_WIDTH, casingTop, CASING_DEPTH]);
      if (casingTop > base + h) addBox(soup, [x0, base + h, 0], [x1, casingTop, CASING_DEPTH]);
    }
  }

  if (o.skirting) {
    const runs: [number, number][] = hasDoor
      ? [
          [-WALL_HALF_LENGTH, x0 - (o.casing ? CASING_WIDTH : 0)],
          [x1 + (o.casing ? CASING_WIDTH : 0), WALL_HALF_LENGTH],
        ]
      : [[-WALL_HALF_LENGTH, WALL_HALF_LENGTH]];
    for (const [a, b] of runs) if (b > a) addBox(soup, [a, 0, 0], [b, SKIRTING_HEIGHT, SKIRTING_DEPTH]);
  }

  if (o.perpendicularWall) addBox(soup, [x0 - SLAB, 0, 0], [x0, ROOM_HEIGHT, 3]);
  if (o.cabinet) addBox(soup, [x1 + 0.1, 0, 0], [x1 + 0.7, 0.9, 0.6]);

  const [ox, oy, oz] = soup.origin;
  const at = (x: number, y: number): Point3 => [x + ox, y + oy, oz];
  const expected: ExpectedOpening | undefined = hasDoor
    ? { corners: [at(cx0, base), at(cx1, base), at(cx1, top), at(cx0, top)], normal: [0, 0, 1] }
    : undefined;
  return { mesh: toMesh(soup), expected, options: o };
}

/** The floor slab alone (nothing to look at but the ground). */
export function buildFloorOnlyScene(origin: readonly number[] = [0, 0, 0]): SyntheticMesh {
  const soup = createSoup(origin);
  addBox(soup, [-6, -SLAB, -6], [6, 0, 6]);
  return toMesh(soup);
}
