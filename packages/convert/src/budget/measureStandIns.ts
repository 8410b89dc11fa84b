import { type Bounds, buildBvh, type TriangleMesh } from '@arsession/geometry';
import type { SceneMesh } from '../scene/SceneData.js';
import { boxProxy, hasOpening, rimProxy, sheetProxy } from './boxProxy.js';
import { measureStandIn, type StandInDistances, standInReach } from './measureStandIn.js';

/** The stand-ins of a piece of envelope detail, each measured against the element (see {@link measureStandIns}). */
export interface DetailStandIns {
  box: StandInDistances;
  sheet: StandInDistances;
  rim: StandInDistances;
}

/** A stand-in not measured, because another is known to be as near for fewer triangles: never chosen. */
export const UNMEASURED: Readonly<StandInDistances> = { deviation: Number.POSITIVE_INFINITY, uncovered: Number.POSITIVE_INFINITY };

/**
 * The sheet, box and rim of `mesh` standing as `parts`, each measured against `surface` (the
 * element's whole surface: a window frame's sheet against its glass too), in the mesh's units.
 * Below `enough` (the same units) how near a stand-in lies is not refined. A sheet within
 * `enough` is as near as a stand-in need be and the cheapest, so the others are then not
 * measured; a rim is measured only round an opening worth leaving open. Pure, so that any thread
 * measuring the same shape finds the same figures, to the bit.
 *
 * @example
 * ```ts
 * const parts = proxyParts(frame);
 * measureStandIns(frame, parts, frameWithGlass, 0.01).sheet; // → { deviation: 0.004, uncovered: 0.03 }
 * ```
 */
export function measureStandIns(mesh: SceneMesh, parts: Bounds[], surface: TriangleMesh, enough: number): DetailStandIns {
  const bvh = buildBvh(surface);
  const within = { enough };
  const sheet = measureStandIn(mesh, sheetProxy(mesh, parts), parts, 'sheet', surface, bvh, within);
  const settled = standInReach(sheet) <= enough;
  // A rim is the sheet less its opening, so no point of the mesh lies nearer it than the sheet:
  // when the sheet's farthest is the mesh's own from it, the rim lies as far at four times the
  // triangles, and is never the better. Without an opening worth leaving open, it is the sheet.
  const rimWorse = settled || sheet.uncovered >= sheet.deviation || !hasOpening(mesh, parts);
  return {
    sheet,
    box: settled ? UNMEASURED : measureStandIn(mesh, boxProxy(mesh, parts), parts, 'box', surface, bvh, within),
    rim: rimWorse ? UNMEASURED : measureStandIn(mesh, rimProxy(mesh, parts), parts, 'rim', surface, bvh, within),
  };
}
