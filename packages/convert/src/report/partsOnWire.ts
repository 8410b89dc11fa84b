import type { DeliveredPart } from '../parts/deliverParts.js';
import { arBudgetOnWire, metresOnWire } from './arBudgetOnWire.js';
import type { PartOnWire } from './wireSchemas.js';

export type { PartOnWire, PartStoreyOnWire } from './wireSchemas.js';

/**
 * The parts of a conversion as the detail record and the CLI state them (snake case, bounds
 * rounded to 0.1 mm).
 *
 * @example
 * ```ts
 * partsOnWire(result.parts!.parts)[0]!.storey?.elevation_m; // → -1.25 for duplex's foundation
 * ```
 */
export function partsOnWire(parts: readonly DeliveredPart[]): PartOnWire[] {
  return parts.map((p, index) => ({
    index,
    name: p.name,
    storey: p.storey && {
      name: p.storey.name,
      global_id: p.storey.globalId,
      ifc_class: p.storey.ifcClass,
      elevation_m: p.storey.elevation === null ? null : metresOnWire(p.storey.elevation),
    },
    cell: p.cell && { index: p.cell[0], count: p.cell[1] },
    bounds: { min: p.bounds.min.map(metresOnWire), max: p.bounds.max.map(metresOnWire) },
    elements: p.elements,
    triangles: p.triangles,
    draw_calls: p.drawCalls,
    usdz_bytes: p.bytes,
    usdz_sha256: p.sha256,
    ar_budget: arBudgetOnWire(p.budget),
  }));
}
