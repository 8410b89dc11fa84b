import { zUpToYUp, type Vec3 } from '@arsession/geometry';
import type { IfcAPI } from 'web-ifc';
import { ArrayBlocks } from '../scene/ArrayBlocks.js';
import { emptyBounds } from '../scene/growBounds.js';
import { collect, moveByOffset, NO_OFFSET, type StreamedGeometry } from './collectGeometry.js';
import type { DoorOpeningRecord, IfcElementRef } from './DoorOpeningRecord.js';
import { ids, references, REL } from './ifcRelations.js';
import { loadWebIfc } from './loadWebIfc.js';
import { measureOpening } from './measureOpening.js';
import type { StepFile } from './step/StepFile.js';
import { stepNumber, stepReferences } from './step/StepValue.js';

// Attribute positions (0-based), the same in IFC2X3, IFC4 and IFC4X3.
const DOOR = { objectPlacement: 5, overallHeight: 8, overallWidth: 9 };

/** A door as read while web-ifc holds the model. */
interface DoorFacts {
  door: number;
  opening: number | undefined;
  wall: number | undefined;
  /** `OverallWidth` / `OverallHeight` in metres. */
  overallWidth: number | undefined;
  overallHeight: number | undefined;
  /** The opening's solid as the file places it, each part with its local vertices (see {@link DoorIndex.measure}). */
  solid: StreamedGeometry[];
  /** The door placement's local y axis (IFC: the swing side) in Y-up, a hint for the wall normal. */
  hint: Vec3 | undefined;
}

/** What {@link DoorIndex.measure} needs of the scene. */
export interface DoorScene {
  /** The delivered frame's offset from the file's (see `chooseOffset`). */
  offset: Vec3;
  ref: (id: number) => IfcElementRef;
  storeyOf: ReadonlyMap<number, number>;
  /** A placed wall's vertices (delivered frame), to clamp the opening's faces to its surfaces. */
  wallPositions: (wall: number) => Float32Array[] | undefined;
}

/**
 * The door index (door → opening → wall, with measured openings) in two steps: what only web-ifc
 * can give (relations, opening solids, door placements) is {@link read} while it holds the model;
 * the openings are {@link measure}d once the walls are placed, after web-ifc has let go of it.
 *
 * @example
 * ```ts
 * const index = DoorIndex.read(api, model, file, unit);
 * // … web-ifc closes the model; the scene is placed …
 * const records = index.measure({ offset, ref, storeyOf, wallPositions });
 * ```
 */
export class DoorIndex {
  private constructor(private readonly doors: readonly DoorFacts[]) {}

  /** Reads every door (IfcDoor and its subtypes) with its opening and wall; sizes in metres by `unit`. */
  static read(api: IfcAPI, model: number, file: StepFile, unit: number): DoorIndex {
    const web = loadWebIfc();
    const openingOfDoor = new Map<number, number>();
    for (const rel of ids(api, model, web.IFCRELFILLSELEMENT)) {
      const opening = references(file, rel, REL.first)[0]; // RelatingOpeningElement
      const door = references(file, rel, REL.second)[0]; // RelatedBuildingElement
      if (door !== undefined && opening !== undefined) openingOfDoor.set(door, opening);
    }
    const wallOfOpening = new Map<number, number>();
    for (const rel of ids(api, model, web.IFCRELVOIDSELEMENT)) {
      const wall = references(file, rel, REL.first)[0]; // RelatingBuildingElement
      const opening = references(file, rel, REL.second)[0]; // RelatedOpeningElement
      if (opening !== undefined && wall !== undefined) wallOfOpening.set(opening, wall);
    }
    const doors = ids(api, model, web.IFCDOOR, true).map((door): DoorFacts => {
      const attributes = file.entity(door)?.attributes ?? [];
      const placement = stepReferences(attributes[DOOR.objectPlacement])[0];
      const overallWidth = stepNumber(attributes[DOOR.overallWidth]);
      const overallHeight = stepNumber(attributes[DOOR.overallHeight]);
      const opening = openingOfDoor.get(door);
      return {
        door,
        opening,
        wall: opening === undefined ? undefined : wallOfOpening.get(opening),
        overallWidth: overallWidth === undefined ? undefined : overallWidth * unit,
        overallHeight: overallHeight === undefined ? undefined : overallHeight * unit,
        solid: opening === undefined ? [] : openingSolid(api, model, opening),
        hint: opening === undefined || placement === undefined ? undefined : doorNormalHint(api, model, placement),
      };
    });
    return new DoorIndex(doors);
  }

  /** Every entity the records name (doors, openings, walls): their classes must be read while web-ifc holds the model. */
  entities(): number[] {
    return this.doors.flatMap((d) => [d.door, ...(d.opening === undefined ? [] : [d.opening]), ...(d.wall === undefined ? [] : [d.wall])]);
  }

  /** The door records, each opening measured in the delivered frame against its placed wall. */
  measure(scene: DoorScene): DoorOpeningRecord[] {
    const { offset, ref, storeyOf } = scene;
    return this.doors.map((d) => {
      const record: DoorOpeningRecord = {
        door: ref(d.door),
        ...(d.opening !== undefined && { opening: ref(d.opening) }),
        ...(d.wall !== undefined && { wall: ref(d.wall) }),
        ...(storeyOf.has(d.door) && { storey: ref(storeyOf.get(d.door)!).name }),
        width: 0,
        height: 0,
        thickness: 0,
        faces: [],
        ...(d.overallWidth !== undefined && { overallWidth: d.overallWidth }),
        ...(d.overallHeight !== undefined && { overallHeight: d.overallHeight }),
      };
      const solid = d.solid.length > 0 ? placedSolid(d.solid, offset) : undefined;
      const wallPositions = d.wall === undefined ? undefined : scene.wallPositions(d.wall);
      const measured =
        solid &&
        measureOpening({
          ...solid,
          ...(wallPositions && { wallPositions }),
          ...(d.hint && { normalHint: d.hint }),
        });
      if (measured) Object.assign(record, measured);
      return record;
    });
  }
}

/**
 * The opening's solid as the file places it (web-ifc streams openings only on request), each part
 * keeping its local vertices (`keepBeyond: -1`) to be placed again in float64 once the offset is
 * known.
 */
function openingSolid(api: IfcAPI, model: number, opening: number): StreamedGeometry[] {
  const parts: StreamedGeometry[] = [];
  // Arrays of their own (`blockBytes: 0`): an opening's few vertices are copied out at once.
  const target = { blocks: new ArrayBlocks({ blockBytes: 0 }), offset: NO_OFFSET, box: emptyBounds(), keepBeyond: -1, held: 0 };
  collect(api, model, api.GetFlatMesh(model, opening), target, parts);
  return parts;
}

/** The solid's parts in the delivered frame, as one indexed triangle list. */
function placedSolid(parts: StreamedGeometry[], offset: Vec3): { positions: Float32Array; indices: Uint32Array } {
  if (offset.some((v) => v !== 0)) moveByOffset(parts, offset);
  const positions = new Float32Array(parts.reduce((s, p) => s + p.positions.length, 0));
  const indices = new Uint32Array(parts.reduce((s, p) => s + p.indices.length, 0));
  let pv = 0,
    pi = 0;
  for (const p of parts) {
    positions.set(p.positions, pv);
    for (let i = 0; i < p.indices.length; i++) indices[pi + i] = p.indices[i]! + pv / 3;
    pv += p.positions.length;
    pi += p.indices.length;
  }
  return { positions, indices };
}

/** The door placement's local y axis (IFC: the swing side) in Y-up, as a hint for the wall normal. */
function doorNormalHint(api: IfcAPI, model: number, placement: number): Vec3 | undefined {
  try {
    // Placements come raw: z-up, column-major. The local y axis is column 1; turn that direction to y-up.
    const m = api.GetWorldTransformMatrix(model, placement);
    const y = zUpToYUp([0, 0, 0], [m[4]!, m[5]!, m[6]!]);
    const l = Math.hypot(y[0], y[2]);
    return l > 1e-6 ? [y[0] / l, 0, y[2] / l] : undefined;
  } catch {
    return undefined;
  }
}
