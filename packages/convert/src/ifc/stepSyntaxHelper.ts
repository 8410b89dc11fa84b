// A helper thread of StepSyntaxCheck: walks the file (in memory both threads share) while the
// thread that started it opens it in web-ifc, and hands back its verdict with the entities' offsets.
import { parentPort, workerData } from 'node:worker_threads';
import { checkStepSyntax } from './checkStepSyntax.js';
import { StepEntityOffsets, transferablesOf } from './StepEntityOffsets.js';
import type { StepSyntaxHelperVerdict } from './StepSyntaxCheck.js';

const { bytes } = workerData as { bytes: Uint8Array };
const offsets = new StepEntityOffsets();
const problem = checkStepSyntax(bytes, {}, offsets);
const verdict: StepSyntaxHelperVerdict = { problem, offsets: offsets.toData() };
parentPort!.postMessage(verdict, transferablesOf(verdict.offsets));
