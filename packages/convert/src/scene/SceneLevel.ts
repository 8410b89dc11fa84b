/**
 * A spatial container a reader drew as a node (an IFC storey, space, building or site): the
 * parent of the elements it contains, with the storey it is or lies in — what a large project is
 * split into parts along.
 */
export interface SceneLevel {
  /** Its node (index into `SceneData.nodes`). */
  node: number;
  /** The storey it is, or lies in (a space's storey); the container itself where no storey holds it (a site, a building). */
  storey: SceneStorey;
}

/** A storey (or the container standing for one) as the file names it. */
export interface SceneStorey {
  name: string;
  globalId: string;
  /** `IfcBuildingStorey`, or the class of the container standing for one (`IfcBuilding`, `IfcSite`). */
  ifcClass: string;
  /** Metres above the project's datum, as the file states it; `null` when it states none. */
  elevation: number | null;
}
