import type { DeliveredStorey } from '../usdz/layer/deliveredStoreys.js';
import type { StoreyOnWire } from './wireSchemas.js';
import { metresOnWire } from './arBudgetOnWire.js';

export type { StoreyOnWire } from './wireSchemas.js';

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
