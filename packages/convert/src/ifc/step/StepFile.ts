import type { StepEntityOffsets } from '../StepEntityOffsets.js';
import { readStepAttribute, readStepEntity, type StepEntity } from './readStepEntity.js';
import type { StepValue } from './StepValue.js';

const UNSET: StepValue = { kind: 'unset' };

/**
 * The entity instances of a STEP file, read by id straight from its bytes: what web-ifc's
 * `GetLine` gives, without its cost (~10 µs a line, every attribute built as an object) and
 * without its mistakes (it drops a derived `*` attribute and shifts the ones after it).
 *
 * @example
 * ```ts
 * const offsets = new StepEntityOffsets();
 * checkStepSyntax(bytes, {}, offsets);
 * const file = new StepFile(bytes, offsets);
 * stepText(file.attribute(40, 2)); // → 'South wall'
 * ```
 */
export class StepFile {
  constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: StepEntityOffsets,
  ) {}

  /** Entity `id` with all its attributes, or `undefined` when the file has no such instance. */
  entity(id: number): StepEntity | undefined {
    const at = this.offsets.offsetOf(id);
    return at < 0 ? undefined : readStepEntity(this.bytes, at);
  }

  /** Attribute `index` (0-based) of entity `id`; `unset` when either is missing. */
  attribute(id: number, index: number): StepValue {
    const at = this.offsets.offsetOf(id);
    return at < 0 ? UNSET : readStepAttribute(this.bytes, at, index);
  }
}
