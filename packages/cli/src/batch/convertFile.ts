import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  arBudgetOnWire,
  conversionStatsOnWire,
  partsOnWire,
  storeysOnWire,
  unpackParts,
  type PartOnWire,
  type ArBudget,
  type ArBudgetOnWire,
  type ConversionResult,
  type ConversionStatsOnWire,
  type ConvertError,
  type ConvertModelOptions,
  type StoreyOnWire,
} from '@arsession/convert/pool';

/**
 * What `arsession convert` reports for one model: one JSON line each with `--json`, in the words
 * of the HTTP detail record (`mesh_nodes`, `max_deviation_m`), so one parser reads both.
 */
export type FileReport = ConvertedReport | RefusedReport;

/** A model converted. */
export interface ConvertedReport {
  input: string;
  status: 'converted';
  format: ConversionResult['format'];
  schema?: string;
  /** How the USDZ was made: written from the model, or an ARKit-ready USDZ delivered as it came. */
  delivery: ConversionResult['delivery'];
  outputs: {
    usdz: { path: string; bytes: number };
    glb?: { path: string; bytes: number };
    /** The parts of a model over the budget, each a USDZ in the parts folder (`file`), listed in its `parts.json` too. */
    parts?: { path: string; parts: Array<PartOnWire & { file: string }> };
    /** An IFC's element records (`ElementRecords` JSON): the file, its size and how many elements it holds. */
    elements?: { path: string; bytes: number; count: number };
  };
  stats: ConversionStatsOnWire;
  /** The USDZ's storeys, bottom up, with their Xforms' paths, as the detail record's `storeys`. */
  storeys: StoreyOnWire[];
  bounds: ConversionResult['bounds'];
  offset: ConversionResult['offset'];
  warnings: ConversionResult['warnings'];
  /** Time in the conversion worker: reading the model, then merging and writing. */
  timings: { read_ms: number; write_ms: number };
  /** What the AR budget did, as the detail record's `ar_budget` (absent with --no-budget). */
  ar_budget?: ArBudgetOnWire;
  /** Size of the input file. */
  bytes: number;
  seconds: number;
}

/** A model refused, and why. */
export interface RefusedReport {
  input: string;
  status: 'refused';
  error: { code: string; message: string };
  bytes: number;
  seconds: number;
}

/**
 * What converts a model, and the class its refusals are: the pool's worker threads for a batch,
 * or the process's own thread for a single model (a bundle of its own, with classes of its own).
 */
export interface ConversionEngine {
  convert(bytes: Uint8Array, options: Partial<Omit<ConvertModelOptions, 'maxHeapMb'>>): Promise<ConversionResult>;
  ConvertError: abstract new (...args: never[]) => ConvertError;
  /**
   * How it reads a model file: into shared memory, for a conversion in this thread or a pooled
   * worker (a large IFC is then checked on a helper thread beside web-ifc's parse).
   */
  readFile: (path: string) => Uint8Array | Promise<Uint8Array>;
}

/** Where one model goes. */
export interface ConvertFileOptions {
  usdzPath: string;
  glbPath?: string;
  timeoutMs?: number;
  /** The AR budget (defaults for limits left out); `false`: none. */
  budget?: Partial<ArBudget> | false;
  /**
   * A folder for the parts of a model over the budget: one USDZ per part (`00.usdz`, …) and
   * `parts.json` listing them. Nothing is written there for a model within the budget.
   */
  partsDir?: string;
  /** A file for an IFC's element records: JSON, gzipped when its name ends in `.gz`. Nothing is written for a GLB or USDZ. */
  elementsPath?: string;
}

/**
 * Converts one model file with `engine` (a hang ends at the timeout either way), writes the USDZ
 * (streamed, atomic) and the GLB (atomic) where asked, creating their folders, and reports what
 * came out or why the model was refused: as the server does, a model with nothing to draw is
 * refused (`model_unreadable`) and leaves no file. Only bugs of ours throw.
 *
 * @example
 * ```ts
 * const report = await convertFile('house.ifc', 'house.ifc', { convert: convertModel, ConvertError }, { usdzPath: 'out/house.usdz' });
 * ```
 */
export async function convertFile(path: string, name: string, engine: ConversionEngine, options: ConvertFileOptions): Promise<FileReport> {
  const started = performance.now();
  const seconds = () => Math.round(performance.now() - started) / 1000;
  let bytes: Uint8Array;
  try {
    bytes = await engine.readFile(path);
  } catch (err) {
    return {
      input: name,
      status: 'refused',
      error: { code: 'file_unreadable', message: `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` },
      bytes: 0,
      seconds: seconds(),
    };
  }
  const size = bytes.length;
  const partsPath = options.partsDir === undefined ? undefined : join(options.partsDir, `.parts.${process.pid}.zip`);
  const gzipped = options.elementsPath?.endsWith('.gz') === true;
  const elementsPath =
    options.elementsPath === undefined ? undefined : gzipped ? options.elementsPath : `${options.elementsPath}.${process.pid}.gz`;
  try {
    await mkdir(dirname(options.usdzPath), { recursive: true });
    if (options.partsDir !== undefined) await mkdir(options.partsDir, { recursive: true });
    const result = await engine.convert(bytes, {
      fileName: name,
      outputs: options.glbPath ? ['usdz', 'glb'] : ['usdz'],
      usdzPath: options.usdzPath,
      ...(partsPath !== undefined && { partsPath }),
      ...(elementsPath !== undefined && { elementsPath }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.budget !== undefined && { budget: options.budget }),
    });
    if (result.stats.triangles === 0) {
      // Nothing to show or place: the server refuses such a model (model_unreadable), and so does the CLI.
      await rm(options.usdzPath, { force: true });
      return {
        input: name,
        status: 'refused',
        error: { code: 'model_unreadable', message: `${name} has no geometry to show or place (0 triangles)` },
        bytes: size,
        seconds: seconds(),
      };
    }
    if (options.glbPath) await writeAtomically(options.glbPath, result.glb!);
    const parts =
      result.parts && partsPath !== undefined ? await writePartFiles(partsPath, options.partsDir!, result.parts.parts) : undefined;
    const elements =
      result.elements && elementsPath !== undefined ? await elementsFile(elementsPath, options.elementsPath!, result.elements) : undefined;
    return {
      input: name,
      status: 'converted',
      format: result.format,
      ...(result.source.schema !== undefined && { schema: result.source.schema }),
      delivery: result.delivery,
      outputs: {
        usdz: { path: options.usdzPath, bytes: result.usdzFileBytes! },
        ...(options.glbPath && { glb: { path: options.glbPath, bytes: result.glb!.length } }),
        ...(parts && { parts }),
        ...(elements && { elements }),
      },
      stats: conversionStatsOnWire(result.stats),
      storeys: storeysOnWire(result.storeys ?? []),
      bounds: result.bounds,
      offset: result.offset,
      warnings: result.warnings,
      timings: { read_ms: result.timings.readMs, write_ms: result.timings.writeMs },
      ...(result.budget && { ar_budget: arBudgetOnWire(result.budget) }),
      bytes: size,
      seconds: seconds(),
    };
  } catch (err) {
    if (partsPath !== undefined) await rm(partsPath, { force: true });
    if (elementsPath !== undefined && !gzipped) await rm(elementsPath, { force: true });
    if (err instanceof engine.ConvertError)
      return { input: name, status: 'refused', error: { code: err.code, message: err.message }, bytes: size, seconds: seconds() };
    throw err;
  }
}

/** The records the conversion wrote (gzipped JSON at `written`), where they were asked for: as they are for a `.gz` name, else inflated. */
async function elementsFile(
  written: string,
  path: string,
  elements: NonNullable<ConversionResult['elements']>,
): Promise<{ path: string; bytes: number; count: number }> {
  if (written === path) return { path, bytes: elements.bytes, count: elements.count };
  const json = gunzipSync(await readFile(written));
  await writeAtomically(path, json);
  await rm(written, { force: true });
  return { path, bytes: json.length, count: elements.count };
}

/** The archive the conversion wrote, unpacked into one file per part and `parts.json`; the archive then goes. */
async function writePartFiles(
  archive: string,
  dir: string,
  delivered: NonNullable<ConversionResult['parts']>['parts'],
): Promise<{ path: string; parts: Array<PartOnWire & { file: string }> }> {
  const files = unpackParts(new Uint8Array(await readFile(archive)));
  const parts = partsOnWire(delivered).map((p, i) => ({ ...p, file: files[i]!.name }));
  for (const file of files) await writeAtomically(join(dir, file.name), file.data);
  await writeAtomically(join(dir, 'parts.json'), new TextEncoder().encode(`${JSON.stringify({ parts }, null, 2)}\n`));
  await rm(archive, { force: true });
  return { path: dir, parts };
}

async function writeAtomically(path: string, data: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.partial`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
