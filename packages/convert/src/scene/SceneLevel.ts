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

const SPATIAL = /^ifc(site|building|buildingstorey|space)$/i;

/**
 * Whether an IFC class contains elements (a site, a building, a storey, a space), in any case the
 * file or web-ifc writes it.
 *
 * @example
 * ```ts
 * isSpatialClass('IFCBUILDINGSTOREY'); // → true
 * ```
 */
export function isSpatialClass(ifcClass: string): boolean {
  return SPATIAL.test(ifcClass);
}

/**
 * Whether a node with this identity stands for a storey: a storey group a merge made (a `storey`
 * and no class of its own), or a reader's container node (a spatial class, in no storey).
 *
 * @example
 * ```ts
 * isStoreyNode({ storey: 'Level 1' }); // → true
 * isStoreyNode({ ifcClass: 'IfcWall', storey: 'Level 1' }); // → false: an element on it
 * ```
 */
export function isStoreyNode(metadata: Readonly<Record<string, unknown>>): boolean {
  const { ifcClass, storey } = metadata;
  if (ifcClass === undefined) return typeof storey === 'string';
  return storey === undefined && typeof ifcClass === 'string' && isSpatialClass(ifcClass);
}
