import { crc32 } from 'node:zlib';
import { zipLayout, type ZipEntryHeader } from '@arsession/usd';
import type { Bounds } from '@arsession/geometry';
import { createHash } from 'node:crypto';
import { AR_BUDGET_DEFAULTS, type ArBudget, type BudgetReport, type CategoryFigures } from '../budget/ArBudget.js';
import { BUDGET_CATEGORIES, type BudgetCategory } from '../budget/BudgetCategory.js';
import { categoryOfIfcClass } from '../budget/categoryOfIfcClass.js';
import { ifcClassOfNode } from '../budget/meshCategories.js';
import { defaultBudgetSteps, fitArBudget } from '../budget/fitArBudget.js';
import { writeHashedFileAsync, type WrittenFile } from '../io/writeHashedFile.js';
import type { SceneData, StreamReducedFigures } from '../scene/SceneData.js';
import { drawCalls } from '../scene/sceneStats.js';
import { writeUsdz } from '../usdz/writeUsdz.js';
import { partScene } from './partScene.js';
import type { ScenePart } from './ScenePart.js';
import type { SceneStorey } from '../scene/SceneLevel.js';

/** Options of {@link deliverParts}. */
export interface DeliverPartsOptions {
  /** The budget each part is brought within, as the whole is. */
  budget: ArBudget;
  /** What the reader's stream reduction moved (the whole's `streamReduced`): added to each part's figures, which stay upper bounds. */
  streamReduced?: StreamReducedFigures;
}

/** Defaults of {@link deliverParts}. */
export const DELIVER_PARTS_DEFAULTS: Readonly<DeliverPartsOptions> = { budget: AR_BUDGET_DEFAULTS };

/** One part as delivered: its USDZ's entry in the parts archive, and what it holds. */
export interface DeliveredPart {
  /** Its file's name in the archive (`00.usdz`, `01.usdz`, …). */
  entry: string;
  /** Where its USDZ starts in the archive (bytes): a part is the range `[offset, offset + bytes)` of it. */
  offset: number;
  name: string;
  storey: SceneStorey | null;
  cell: [number, number] | null;
  bounds: Bounds;
  /** Elements (element nodes) it draws. */
  elements: number;
  triangles: number;
  drawCalls: number;
  bytes: number;
  sha256: string;
  /** What the budget did to it (its bytes included); deviations include the reader's stream reduction. */
  budget: BudgetReport;
}

/** What {@link deliverParts} wrote: the archive's size and SHA-256, and each part. */
export interface DeliveredParts extends WrittenFile {
  parts: DeliveredPart[];
}

/**
 * Writes each part of a scene as its own ARKit-ready USDZ, brought within the budget on its own,
 * into one stored zip at `path` (entries 64-byte aligned, so a part can be served as a byte range
 * of it). One part is held in memory at a time. Every part is in the whole's frame: a part placed
 * where the overview is placed lies where it lies in the building.
 *
 * @example
 * ```ts
 * const { parts } = await deliverParts(scene, splitIntoParts(scene, scene.levels), 'house.parts.zip');
 * parts[0]!.entry; // → '00.usdz'
 * ```
 */
export async function deliverParts(
  scene: SceneData,
  parts: readonly ScenePart[],
  path: string,
  options: Partial<DeliverPartsOptions> = {},
): Promise<DeliveredParts> {
  const opts = { ...DELIVER_PARTS_DEFAULTS, ...options };
  const delivered: DeliveredPart[] = [];
  const headers: ZipEntryHeader[] = [];
  let at = 0;
  // A part is where the user stands: its walls, slabs and roofs are delivered as read, whatever its detail gives.
  const steps = defaultBudgetSteps({ simplify: { shapeErrors: [] } });
  const written = await writeHashedFileAsync(path, async (write) => {
    for (const [i, part] of parts.entries()) {
      const fitted = await fitArBudget(partScene(scene, part), opts.budget, { steps });
      const usdz = writeUsdz(fitted.scene, { instanceable: fitted.report.steps.length > 0 });
      const entry = `${String(i).padStart(2, '0')}.usdz`;
      const size = usdz.reduce((n, p) => n + p.length, 0);
      headers.push({ name: entry, size, crc: usdz.reduce((crc, p) => crc32(p, crc), 0) >>> 0 });
      // Each local header depends only on the entries before it.
      const local = zipLayout(headers).locals[i]!;
      write(local);
      const offset = at + local.length;
      at = offset + size;
      const hash = createHash('sha256');
      for (const p of usdz) {
        write(p);
        hash.update(p);
      }
      const report = opts.streamReduced ? withStreamReduction(fitted.report, partStrays(scene, part, opts.streamReduced)) : fitted.report;
      delivered.push({
        entry,
        offset,
        name: part.name,
        storey: part.storey,
        cell: part.cell,
        bounds: part.bounds,
        elements: part.nodes.length,
        triangles: fitted.scene.stats.triangles,
        drawCalls: drawCalls(fitted.scene),
        bytes: size,
        sha256: hash.digest('hex'),
        budget: {
          ...report,
          delivered: { ...report.delivered, bytes: size },
          withinBudget: report.withinBudget && size <= opts.budget.packageBytes,
        },
      });
    }
    write(zipLayout(headers).tail);
  });
  return { ...written, parts: delivered };
}

/** What the reader's stream reduction did to one part's elements: each category's farthest, and the triangles the part draws in it. */
interface PartStrays {
  maxDeviation: number;
  maxUncovered: number;
  categories: Array<{ category: BudgetCategory; triangles: number; maxDeviation: number; maxUncovered: number }>;
}

/**
 * The stream reduction's figures for the elements of `part` (see `StreamReducedFigures.nodeStrays`),
 * each category's farthest over them; the whole's figures where the reader could not tell them
 * apart. A category the part draws that the reduction left as read counts 0.
 */
export function partStrays(scene: SceneData, part: ScenePart, streamed: StreamReducedFigures): PartStrays {
  const rows = new Map<BudgetCategory, PartStrays['categories'][number]>();
  const row = (category: BudgetCategory) => {
    let r = rows.get(category);
    if (!r) rows.set(category, (r = { category, triangles: 0, maxDeviation: 0, maxUncovered: 0 }));
    return r;
  };
  const whole = streamed.categories.map((c) => ({ category: c.category, deviation: c.maxDeviation, uncovered: c.maxUncovered }));
  for (const n of part.nodes) {
    const own = streamed.nodeStrays?.[n];
    const triangles = scene.nodes[n]!.meshes.reduce((t, m) => t + scene.meshes[m]!.indices.length / 3, 0);
    // Counted where the reduction counted the element (its class's category otherwise).
    row(own?.[0]?.category ?? categoryOfIfcClass(ifcClassOfNode(scene.nodes, n))).triangles += triangles;
    for (const stray of streamed.nodeStrays ? (own ?? []) : whole) {
      const r = row(stray.category);
      r.maxDeviation = Math.max(r.maxDeviation, stray.deviation);
      r.maxUncovered = Math.max(r.maxUncovered, stray.uncovered);
    }
  }
  const categories = BUDGET_CATEGORIES.flatMap((c) => rows.get(c) ?? []);
  return {
    maxDeviation: Math.max(0, ...categories.map((c) => c.maxDeviation)),
    maxUncovered: Math.max(0, ...categories.map((c) => c.maxUncovered)),
    categories,
  };
}

/**
 * A part's report with what the reader moved before it was split added: one-sided distances
 * obey the triangle inequality, so the sums bound the part against the full model. A part its own
 * budget left as read states each category it draws with the reader's figures alone.
 */
function withStreamReduction(report: BudgetReport, streamed: PartStrays): BudgetReport {
  const of = (category: string) => streamed.categories.find((c) => c.category === category);
  const categories: CategoryFigures[] =
    report.categories.length > 0
      ? report.categories.map((c) => ({
          ...c,
          maxDeviation: c.maxDeviation + (of(c.category)?.maxDeviation ?? 0),
          maxUncovered: c.maxUncovered + (of(c.category)?.maxUncovered ?? 0),
        }))
      : streamed.categories.map(({ category, triangles, maxDeviation, maxUncovered }) => ({
          category,
          sourceTriangles: triangles,
          deliveredTriangles: triangles,
          maxDeviation,
          maxUncovered,
          proxiedElements: 0,
          leftOut: [],
        }));
  return {
    ...report,
    maxDeviation: report.maxDeviation + streamed.maxDeviation,
    maxUncovered: report.maxUncovered + streamed.maxUncovered,
    categories,
  };
}
