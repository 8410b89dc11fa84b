import type { DeliveredStorey } from '../usdz/layer/deliveredStoreys.js';
import { metresOnWire } from './arBudgetOnWire.js';

/** A storey of a delivered USDZ, as the detail record and the CLI's `--json` state it. */
export interface StoreyOnWire {
  /** Its name as the file states it (a site or building standing for a storey: its name). */
  name: string;
  /**
   * `IfcBuildingStorey`, or the container standing for one (`IfcSite`, `IfcBuilding`); `null`
   * where merged containers of one name differ.
   */
  ifc_class: string | null;
  /** Metres above the project's datum, as the file states it; `null` when it states none. */
  elevation_m: number | null;
  /** Its Xform in the USDZ (`/Model/Level_1`): hide or show it, and every prim of the storey goes with it. */
  prim_path: string;
}

/**
 * The storeys of a conversion as the detail record and the CLI state them (snake case, metres to
 * 0.1 mm).
 *
 * @example
 * ```ts
 * storeysOnWire(result.storeys ?? []).map((s) => s.prim_path); // → ['/Model/Erdgeschoss', '/Model/Dachgeschoss', …]
 * ```
 */
export function storeysOnWire(storeys: readonly DeliveredStorey[]): StoreyOnWire[] {
  return storeys.map((s) => ({
    name: s.name,
    ifc_class: s.ifcClass,
    elevation_m: s.elevation === null ? null : metresOnWire(s.elevation),
    prim_path: s.prim,
  }));
}
