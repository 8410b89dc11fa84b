import { type Bounds, type Bvh, buildBvh, type TriangleMesh } from '@arsession/geometry';
import type { SceneMesh } from '../scene/SceneData.js';
import { pointBounds } from '../scene/pointBounds.js';
import { boxProxy, hasOpening, rimProxy, sheetProxy, thinnestAxis } from './boxProxy.js';
import { boundStandIn, measureStandIn, type StandInDistances, standInReach } from './measureStandIn.js';

/** The stand-ins of a piece of envelope detail, each measured against the element (see {@link measureStandIns}). */
export interface DetailStandIns {
  box: StandInDistances;
  sheet: StandInDistances;
  /** Where the sheet lies across each box's thinnest side (see `sheetPlane`): where it is nearest the element. */
  sheetAt: number;
  rim: StandInDistances;
}

/** A stand-in not measured, because another is known to be as near for fewer triangles: never chosen. */
export const UNMEASURED: Readonly<StandInDistances> = { deviation: Number.POSITIVE_INFINITY, uncovered: Number.POSITIVE_INFINITY };

/**
 * Where a sheet may lie across its box off the mid-plane, outwards towards either face: the inner
 * eighths. Never on a face, where it would meet, in the same plane, whatever the element's face
 * touches (a sash behind a frame).
 */
const SHEET_PLACES: Readonly<Record<'low' | 'high', readonly number[]>> = { low: [0.375, 0.25, 0.125], high: [0.625, 0.75, 0.875] };

/**
 * The sheet, box and rim of `mesh` standing as `parts`, each measured against `surface` (the
 * element's whole surface: a window frame's sheet against its glass too), in the mesh's units.
 * The sheet lies at the mid-plane, or nearer the rest of the element where that is nearer
 * either way: a window's outer frame, its sheet moved towards the glass behind it.
 * Below `enough` (the same units) how near a stand-in lies is not refined. A sheet within
 * `enough` is as near as a stand-in need be and the cheapest, so the others are then not
 * measured; a rim is measured only round an opening worth leaving open. `rest`: the points of
 * the rest of the element, where the sheet looks for it (default: the surface's vertices after
 * the mesh's own, which `withCompanions` puts first; a union of some of an element's meshes
 * passes the others'). Pure, so that any thread measuring the same shape finds the same figures,
 * to the bit.
 *
 * @example
 * ```ts
 * const parts = proxyParts(frame);
 * measureStandIns(frame, parts, frameWithGlass, 0.01).sheet; // → { deviation: 0.004, uncovered: 0.03 }
 * ```
 */
export function measureStandIns(
  mesh: SceneMesh,
  parts: Bounds[],
  surface: TriangleMesh,
  enough: number,
  rest: Float32Array = surface.positions.subarray(Math.min(mesh.positions.length, surface.positions.length)),
): DetailStandIns {
  const bvh = buildBvh(surface);
  const within = { enough };
  const { distances: middle, seen } = boundStandIn(mesh, sheetProxy(mesh, parts), parts, 'sheet', surface, bvh, within);
  const settled = standInReach(middle) <= enough;
  // A rim is the mid-plane sheet less its opening, so no point of the mesh lies nearer it than
  // that sheet: when the sheet's farthest is the mesh's own from it, the rim lies as far at four
  // times the triangles, and is never the better. Without an opening worth leaving open, it is the sheet.
  const rimWorse = settled || middle.uncovered >= middle.deviation || !hasOpening(mesh, parts);
  // Off the mid-plane the mesh only lies farther from the sheet: worth a look only where some
  // point of the sheet truly lies farther from the element than that (over an opening).
  const stays = settled || seen <= middle.uncovered;
  const { sheet, at } = stays
    ? { sheet: middle, at: 0.5 }
    : nearestSheet(mesh, parts, surface, bvh, enough, Math.max(seen, middle.uncovered), middle, rest);
  // A box (three times a sheet's triangles) or a rim (four times) is of use only where it lies
  // nearer than every cheaper stand-in: past that, its measuring stops and it is never chosen.
  const box = settled
    ? UNMEASURED
    : measureStandIn(mesh, boxProxy(mesh, parts), parts, 'box', surface, bvh, { enough, cap: standInReach(sheet) });
  const cheaper = Math.min(standInReach(sheet), standInReach(box));
  const rim = rimWorse ? UNMEASURED : measureStandIn(mesh, rimProxy(mesh, parts), parts, 'rim', surface, bvh, { enough, cap: cheaper });
  return { sheet, sheetAt: at, box, rim };
}

/**
 * The sheet at whichever of `SHEET_PLACES` lies nearest the element either way, given it measured
 * at the mid-plane (`middle`), where it truly lies at least `truly` apart. The places tried are
 * those towards where the rest of the element lies (the glass behind a frame), outwards until one
 * is no nearer. A place off the middle is taken only when its bound is below the best so far,
 * `truly` first: surely nearer, not merely bounded tighter (a bound inside a solid pane is looser
 * than the pane's half thickness it stands for).
 */
function nearestSheet(
  mesh: SceneMesh,
  parts: Bounds[],
  surface: TriangleMesh,
  bvh: Bvh,
  enough: number,
  truly: number,
  middle: StandInDistances,
  rest: Float32Array,
): { sheet: StandInDistances; at: number } {
  let best = { sheet: middle, at: 0.5 };
  const towards = sideOfTheRest(mesh, rest);
  if (!towards) return best;
  let beat = truly;
  for (const at of SHEET_PLACES[towards]) {
    // Only a place nearer than the best so far is of use: measuring stops once it cannot be.
    const sheet = measureStandIn(mesh, sheetProxy(mesh, parts, at), parts, 'sheet', surface, bvh, { enough, sheetAt: at, cap: beat });
    if (standInReach(sheet) >= beat) break;
    best = { sheet, at };
    beat = standInReach(sheet);
  }
  return best;
}

/**
 * Which face of the mesh's box, across its thinnest side, the points `rest` (the rest of the
 * element) lie towards on the whole; undefined with no rest.
 */
function sideOfTheRest(mesh: SceneMesh, rest: Float32Array): 'low' | 'high' | undefined {
  if (rest.length === 0) return undefined;
  const box = pointBounds(mesh.positions);
  const axis = thinnestAxis(box);
  let sum = 0;
  for (let v = axis; v < rest.length; v += 3) sum += rest[v]!;
  const mean = sum / (rest.length / 3);
  return mean < (box.min[axis]! + box.max[axis]!) / 2 ? 'low' : 'high';
}
