import type { DeliveredPart } from '../parts/deliverParts.js';
import { arBudgetOnWire, metresOnWire, type ArBudgetOnWire } from './arBudgetOnWire.js';
import type { PartStoreyOnWire } from './wireSchemas.js';

export type { PartStoreyOnWire } from './wireSchemas.js';

/** One part of a model over the AR budget, as the detail record and the CLI's `parts.json` state it. */
export interface PartOnWire {
  /** Its place in the list, bottom storey first; its file's entry in the parts archive is `NN.usdz`. */
  index: number;
  /** What a person reads: the storey's name, numbered when several share it, with its cell when it was cut. */
  name: string;
  /** The storey it belongs to (or the container standing for one: a building, a site); `null` for elements no container holds. */
  storey: PartStoreyOnWire | null;
  /** Which cell of its storey it is, when the storey was cut (`index` from 0); `null` when it is whole. */
  cell: { index: number; count: number } | null;
  /** Bounds of what it draws, in the model frame (the overview's: a part placed as the overview lies where it lies in the building). */
  bounds: { min: number[]; max: number[] };
  /** Elements it draws. */
  elements: number;
  triangles: number;
  draw_calls: number;
  usdz_bytes: number;
  usdz_sha256: string;
  /** What the AR budget did to it; its deviations include what the reader simplified before the model was split. */
  ar_budget: ArBudgetOnWire;
}

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
