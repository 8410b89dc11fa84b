import type { Vec3 } from '@arsession/geometry';

/** An IFC element as the door index names it. */
export interface IfcElementRef {
  expressId: number;
  ifcClass: string;
  globalId: string;
  name: string;
}

/** One face of a door opening: the clear rectangle where the opening meets a wall face. */
export interface OpeningFace {
  /** [BL, BR, TR, TL] as seen from the side `normal` points to (delivered frame). */
  corners: [Vec3, Vec3, Vec3, Vec3];
  /** Unit, horizontal, pointing away from the wall on this face's side. */
  normal: Vec3;
  /**
   * How far in front of this face a viewer at eye height, looking at its centre, has by_scan
   * mode 1 detect this door (m; `doorApproaches` places the viewer there); null when no distance
   * tried does (another wall in the way): use mode 2. Found only when asked (`approachDoors`).
   */
  viewerDistance?: number | null;
}

/**
 * A door and the hole it fills, from IFC semantics: IfcDoor → IfcRelFillsElement → IfcOpeningElement
 * → IfcRelVoidsElement → wall. Door detection's semantic path chooses among these.
 */
export interface DoorOpeningRecord {
  door: IfcElementRef;
  /** Absent for a door that fills no opening (not hosted in a wall). */
  opening?: IfcElementRef;
  wall?: IfcElementRef;
  storey?: string;
  /** Clear width, height and wall thickness of the opening (m). */
  width: number;
  height: number;
  thickness: number;
  /** The opening on both faces of the wall (normals opposite); empty when it has no geometry. */
  faces: OpeningFace[];
  /** `OverallWidth` / `OverallHeight` of the door in metres, when the file states them. */
  overallWidth?: number;
  overallHeight?: number;
}
