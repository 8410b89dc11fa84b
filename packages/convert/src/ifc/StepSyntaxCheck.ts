import { Worker } from 'node:worker_threads';
import { builtScript } from '../io/builtScript.js';
import { checkStepSyntax } from './checkStepSyntax.js';
import { StepEntityOffsets, type StepEntityOffsetsData } from './StepEntityOffsets.js';

/** What {@link checkStepSyntax} found: the first problem (undefined when sound), and where each entity starts. */
export interface StepSyntaxVerdict {
  problem: string | undefined;
  offsets: StepEntityOffsets;
}

/** A verdict as the helper thread posts it. */
export interface StepSyntaxHelperVerdict {
  problem: string | undefined;
  offsets: StepEntityOffsetsData;
}

/** Options of {@link StepSyntaxCheck.start}. */
export interface StepSyntaxCheckOptions {
  /**
   * Files from this size (bytes), held in shared memory, are checked on a helper thread while
   * web-ifc opens them on this one; smaller ones (where starting a thread costs more than the
   * check) and any other are checked here first.
   */
  besideFromBytes: number;
}

/** Defaults of {@link StepSyntaxCheck.start}: a helper from 8 MiB, whose check takes ~20 ms. */
export const STEP_SYNTAX_CHECK_DEFAULTS: Readonly<StepSyntaxCheckOptions> = { besideFromBytes: 8 * 2 ** 20 };

const HELPER = builtScript('ifc/stepSyntaxHelper.js', import.meta.url);

/**
 * The STEP syntax check of a file web-ifc is about to read (see {@link checkStepSyntax}), here
 * and now, or for a large file in shared memory on a helper thread beside web-ifc's parse
 * (about a fifth of web-ifc's time at 100 MB, hidden behind it). web-ifc's parse only tokenizes
 * and ends on any bytes: what it must not be handed is its later reading of the entities, which
 * a caller starts only once {@link result} says the file is sound.
 *
 * @example
 * ```ts
 * const check = StepSyntaxCheck.start(bytes);
 * const model = api.OpenModel(bytes); // meanwhile, on the other core, the check walks the file
 * const { problem, offsets } = await check.result();
 * ```
 */
export class StepSyntaxCheck {
  private constructor(
    private readonly verdict: Promise<StepSyntaxVerdict>,
    /** The verdict, when this thread checked. */
    readonly settled: StepSyntaxVerdict | undefined,
    private readonly helper: Worker | undefined,
  ) {}

  /** Starts the check of `bytes`: done on return, unless a helper thread takes it (see `besideFromBytes`). */
  static start(bytes: Uint8Array, options: Partial<StepSyntaxCheckOptions> = {}): StepSyntaxCheck {
    const { besideFromBytes } = { ...STEP_SYNTAX_CHECK_DEFAULTS, ...options };
    if (!(bytes.buffer instanceof SharedArrayBuffer) || bytes.length < besideFromBytes) return StepSyntaxCheck.here(bytes);
    let helper: Worker;
    try {
      helper = new Worker(HELPER, { workerData: { bytes } });
    } catch {
      return StepSyntaxCheck.here(bytes);
    }
    const verdict = new Promise<StepSyntaxVerdict>((resolve) => {
      let answered = false;
      helper.once('message', ({ problem, offsets }: StepSyntaxHelperVerdict) => {
        answered = true;
        resolve({ problem, offsets: StepEntityOffsets.fromData(offsets) });
      });
      // A helper that could not run (no thread to be had, its script missing) leaves the check to this thread.
      helper.once('exit', () => {
        if (!answered) resolve(checkHere(bytes));
      });
      helper.on('error', () => {});
    });
    return new StepSyntaxCheck(verdict, undefined, helper);
  }

  private static here(bytes: Uint8Array): StepSyntaxCheck {
    const verdict = checkHere(bytes);
    return new StepSyntaxCheck(Promise.resolve(verdict), verdict, undefined);
  }

  /** The verdict, once the check is done. */
  result(): Promise<StepSyntaxVerdict> {
    return this.verdict;
  }

  /** Stops a helper still checking (a read given up), and lets a finished one go. */
  cancel(): void {
    void this.helper?.terminate();
  }
}

function checkHere(bytes: Uint8Array): StepSyntaxVerdict {
  const offsets = new StepEntityOffsets();
  const problem = checkStepSyntax(bytes, {}, offsets);
  // Indexed now, before web-ifc's heap grows beside the record.
  if (problem === undefined) offsets.compact();
  return { problem, offsets };
}
