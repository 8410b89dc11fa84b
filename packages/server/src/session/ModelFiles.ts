import { copyFile } from 'node:fs/promises';
import type { ConversionResult } from '@arsession/convert';
import type { CachedFilePlaces } from '../cache/CachedConversion.js';
import type { StagedFile } from '../store/SessionStore.js';
import type { SessionStaging } from './SessionStaging.js';

/**
 * The files one model of a session request is delivered as, staged: the USDZ and the GLB always,
 * the parts archive and the element records when the conversion writes them. A conversion (or
 * the cache, or a twin's copy) writes to their local paths; `settle` then keeps what was written
 * and takes the rest back out of the staging.
 *
 * @example
 * ```ts
 * const files = new ModelFiles(staging, 0);
 * const result = await convert(files.paths());
 * await files.settle(result);
 * files.parts?.name; // → '0.parts.zip' for a model over the budget
 * ```
 */
export class ModelFiles {
  readonly usdz: StagedFile;
  readonly glb: StagedFile;
  private partsFile: StagedFile | undefined;
  private elementsFile: StagedFile | undefined;

  constructor(
    private readonly staging: SessionStaging,
    order: number,
  ) {
    this.usdz = staging.stage(`${order}.usdz`);
    this.glb = staging.stage(`${order}.glb`);
    this.partsFile = staging.stage(`${order}.parts.zip`);
    this.elementsFile = staging.stage(`${order}.elements.json.gz`);
  }

  /** The parts archive, once settled: present when the model is over the budget. */
  get parts(): StagedFile | undefined {
    return this.partsFile;
  }

  /** The element records, once settled: present for an IFC. */
  get elements(): StagedFile | undefined {
    return this.elementsFile;
  }

  /** Where a conversion writes each file. */
  paths(): { usdzPath: string; glbPath: string; partsPath: string; elementsPath: string } {
    return { usdzPath: this.usdz.from, glbPath: this.glb.from, partsPath: this.partsFile!.from, elementsPath: this.elementsFile!.from };
  }

  /** Where the conversion cache places an entry's files. */
  cachePlaces(): CachedFilePlaces {
    return this.byCachedName('from');
  }

  /** The files' names among the session's, for the conversion cache to keep. */
  cacheNames(): CachedFilePlaces {
    return this.byCachedName('name');
  }

  /** Keeps the optional files `result` says were written; the others are taken out of the staging. */
  async settle(result: Pick<ConversionResult, 'parts' | 'elements'>): Promise<void> {
    if (!result.parts) this.partsFile = await this.drop(this.partsFile);
    if (!result.elements) this.elementsFile = await this.drop(this.elementsFile);
  }

  /** The same files as a twin's (the same bytes sent twice, converted once), copied. */
  async copyFrom(twin: ModelFiles): Promise<void> {
    await Promise.all([copyFile(twin.usdz.from, this.usdz.from), copyFile(twin.glb.from, this.glb.from)]);
    if (twin.parts && this.partsFile) await copyFile(twin.parts.from, this.partsFile.from);
    else this.partsFile = await this.drop(this.partsFile);
    if (twin.elements && this.elementsFile) await copyFile(twin.elements.from, this.elementsFile.from);
    else this.elementsFile = await this.drop(this.elementsFile);
  }

  /** Each file under its name in a cache entry: its local path (`from`) or its name in the session. */
  private byCachedName(key: keyof StagedFile): CachedFilePlaces {
    return {
      'model.usdz': this.usdz[key],
      'model.glb': this.glb[key],
      ...(this.partsFile && { 'model.parts.zip': this.partsFile[key] }),
      ...(this.elementsFile && { 'model.elements.json.gz': this.elementsFile[key] }),
    };
  }

  private async drop(file: StagedFile | undefined): Promise<undefined> {
    if (file) await this.staging.unstage(file);
    return undefined;
  }
}
