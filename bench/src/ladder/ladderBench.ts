import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BudgetReport, DeliveredPart } from '@arsession/convert';
import { LARGE_MODELS_DIR } from '../budgetBench.js';
import { summarize, type Sample } from '../sample.js';
import { mergeIfcCopies } from './mergeIfcCopies.js';
import { renderOne, renderPartOf, type RenderRow } from '../render/renderBench.js';
import { postOnDefaults, type ServerDefaultsRun } from './postOnDefaults.js';
import { fidelityInProcess } from '../fidelity/fidelityBench.js';
import type { FidelityResult } from '../fidelity/measureFidelity.js';

/** One rung: the source merged `copies` times, converted as the server does beside web-ifc alone, each in a fresh process. */
export interface LadderRow {
  copies: number;
  megabytes: number;
  /** Milliseconds of web-ifc alone: open the model, stream every mesh, copy its arrays out. */
  webIfc: Sample;
  /** Milliseconds of the whole conversion within the default AR budget (read, budget, merge, USDZ). */
  ours: Sample;
  /** Ours ÷ web-ifc, round by round. */
  ratio: Sample;
  webIfcPeakMb: number;
  oursPeakMb: number;
  /** What the conversion reported of its AR budget (the last round's: every round delivers the same). */
  report: BudgetReport;
  /** Milliseconds of the same conversion writing the parts too, as the server does. */
  withParts: Sample;
  /** With parts ÷ web-ifc, round by round. */
  withPartsRatio: Sample;
  withPartsPeakMb: number;
  /** The parts it wrote (the last round's). */
  parts: Array<Omit<DeliveredPart, 'offset'>>;
  /** The overview measured against the full model independently of the budget (see `measureFidelity`); not for the largest rung. */
  fidelity?: FidelityResult & { peakRssMb: number };
}

/** What {@link benchLadder} measured, or why it could not. */
export interface LadderBench {
  source: string;
  /** Rounds of each rung. */
  rounds: number;
  rows: LadderRow[];
  /** Set when the source is not among the large models: nothing was measured. */
  skipped?: string;
  /** The rendered rung as read beside its overview (absent when the render failed). */
  renders?: RenderRow;
  /** The rendered rung's largest whole-storey part beside the same storey as read (absent when the render failed). */
  partRenders?: RenderRow;
  /** The largest rung posted to the embedded server on its defaults: converted, or refused by name. */
  onServer?: ServerDefaultsRun;
}

/** The rung's source: the Revit restaurant of `bench/LARGE-MODELS.md`, 26.9 MB. */
const SOURCE = 'revit2012_janesville_restaurant.ifc';
/** Its copies' sites this far apart, in its own unit (feet): 100 m, a little more than the building. */
const SPACING_FEET = 330;
/** 55, 111, 223 and 500 MB: where real projects begin, and the largest they run to. */
const COPIES = [2, 4, 8, 18];
/** The rung rendered: drawing 18 copies as read would take ~17 GB and ten minutes. */
const RENDERED = 8;
const LARGEST = COPIES[COPIES.length - 1]!;

const PEAK = new URL('../peakRss.js', import.meta.url).pathname;

/** One measurement in a fresh process (see `peakRss.ts`). */
function measured(
  tool: 'web-ifc' | 'ours-budget' | 'ours-parts',
  path: string,
  ...rest: string[]
): { ms: number; peakRssMb: number; report?: BudgetReport; parts?: Array<Omit<DeliveredPart, 'offset'>> } {
  const r = spawnSync(process.execPath, ['--max-old-space-size=8192', PEAK, tool, path, ...rest], { encoding: 'utf8', timeout: 900_000 });
  if (r.status !== 0) throw new Error(`${tool} ${path}: ${r.stderr.trim().split('\n').at(-1)}`);
  return JSON.parse(r.stdout) as { ms: number; peakRssMb: number; report?: BudgetReport; parts?: Array<Omit<DeliveredPart, 'offset'>> };
}

/**
 * The scale ladder: the restaurant merged 2, 4, 8 and 18 times (55, 111, 223, 500 MB; see
 * `mergeIfcCopies`), converted within the default AR budget beside web-ifc alone on the same
 * file, `rounds` alternating rounds of fresh processes each; time, peak memory and what was
 * delivered; each rung's overview but the largest measured against the full model by sampling
 * (see `measureFidelity`); the ×8 rung's overview rendered beside the model as read; the largest
 * rung posted to the server on its defaults.
 *
 * @example
 * ```ts
 * const ladder = await benchLadder(3); // ladder.rows[1].ratio.median → ours ÷ web-ifc at 111 MB
 * ```
 */
export async function benchLadder(rounds: number): Promise<LadderBench> {
  const source = join(LARGE_MODELS_DIR, SOURCE);
  if (!existsSync(source))
    return { source: SOURCE, rounds, rows: [], skipped: `${SOURCE} is not in ${LARGE_MODELS_DIR} (bench/LARGE-MODELS.md)` };
  const dir = mkdtempSync(join(tmpdir(), 'bench-ladder-'));
  try {
    const rows: LadderRow[] = [];
    let renders: RenderRow | undefined, partRenders: RenderRow | undefined, onServer: ServerDefaultsRun | undefined;
    for (const copies of COPIES) {
      const path = mergeIfcCopies(source, { copies, spacing: SPACING_FEET, dir });
      const webIfc: number[] = [],
        ours: number[] = [],
        ratio: number[] = [],
        withParts: number[] = [],
        withPartsRatio: number[] = [];
      let webIfcPeakMb = 0,
        oursPeakMb = 0,
        withPartsPeakMb = 0,
        report: BudgetReport | undefined,
        parts: LadderRow['parts'] = [];
      const partsPath = join(dir, 'parts.zip');
      for (let round = 0; round < rounds; round++) {
        const peer = measured('web-ifc', path),
          mine = measured('ours-budget', path),
          parted = measured('ours-parts', path, partsPath);
        // The rendered rung's last parts are kept for their render below.
        if (round < rounds - 1 || copies !== RENDERED) rmSync(partsPath, { force: true });
        webIfc.push(peer.ms);
        ours.push(mine.ms);
        ratio.push(mine.ms / peer.ms);
        withParts.push(parted.ms);
        withPartsRatio.push(parted.ms / peer.ms);
        webIfcPeakMb = Math.max(webIfcPeakMb, peer.peakRssMb);
        oursPeakMb = Math.max(oursPeakMb, mine.peakRssMb);
        withPartsPeakMb = Math.max(withPartsPeakMb, parted.peakRssMb);
        report = mine.report;
        parts = parted.parts ?? [];
      }
      const row: LadderRow = {
        copies,
        megabytes: statSync(path).size / 2 ** 20,
        webIfc: summarize(webIfc),
        ours: summarize(ours),
        ratio: summarize(ratio),
        webIfcPeakMb,
        oursPeakMb,
        report: report!,
        withParts: summarize(withParts),
        withPartsRatio: summarize(withPartsRatio),
        withPartsPeakMb,
        parts,
      };
      // Sampled both ways beside the full model, as the fidelity section does; the largest rung's full read would take ~20 GB.
      const fidelity = copies === LARGEST ? undefined : fidelityInProcess(path);
      if (fidelity) row.fidelity = fidelity;
      rows.push(row);
      // The rendered rung seen: its overview beside the full model, from the render bench's views.
      if (copies === RENDERED) {
        renders = renderOne(path, true);
        // Its largest whole storey (not cut into cells, whose boxes overlap), as a device loads it where the user stands.
        const whole = parts.map((p, i) => ({ p, i })).filter(({ p }) => p.cell === null);
        type Candidate = (typeof whole)[number];
        const largest = whole.reduce<Candidate | undefined>((a, b) => (!a || b.p.triangles > a.p.triangles ? b : a), undefined);
        if (largest) partRenders = renderPartOf(path, partsPath, largest.i);
        rmSync(partsPath, { force: true });
      }
      // Left out when it fails, as a failed render is: the rungs' measurements stand without it.
      if (copies === LARGEST)
        onServer = await postOnDefaults(path).catch((err: unknown) => {
          console.error(`  the server on its defaults failed: ${String(err)}`);
          return undefined;
        });
      rmSync(path);
      console.error(
        `  restaurant ×${copies} (${row.megabytes.toFixed(0)} MB): ours ÷ web-ifc ×${row.ratio.median.toFixed(2)}, ` +
          `peak ${oursPeakMb.toFixed(0)} MB vs ${webIfcPeakMb.toFixed(0)} MB; ` +
          `with ${parts.length} parts ×${row.withPartsRatio.median.toFixed(2)}`,
      );
    }
    return {
      source: SOURCE,
      rounds,
      rows,
      ...(renders && { renders }),
      ...(partRenders && { partRenders }),
      ...(onServer && { onServer }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
