import { toYUp } from '../axes/upAxis.js';
import { AnchorValidationError, type Problem } from '../errors/GeometryValidationError.js';
import type { UpAxis, Vec3 } from '../types/vector.js';
import { readDirection, readPositive, readVec3 } from '../validation/readVector.js';

/** Options shared by the four anchor builders. */
export interface AnchorOptions {
  /** Axis convention of the input; default `y-up`. Frames always come back in Y-up. */
  coordinateSystem: UpAxis;
  /** Prefix of field names in problems (the request object the fields came from). */
  fieldPrefix: string;
  /** Smallest accepted angle between an in-plane direction and the normal (degrees). */
  minAngleToNormalDeg: number;
}

/** Defaults shared by the four anchor builders. */
export const ANCHOR_DEFAULTS: Readonly<AnchorOptions> = {
  coordinateSystem: 'y-up',
  fieldPrefix: 'virtual_anchor',
  minAngleToNormalDeg: 10,
};

/**
 * Reads the fields of one anchor request, collecting every problem, and hands back values in Y-up.
 * Each anchor builder makes one, reads its fields, then calls {@link AnchorFieldReader.finish}.
 */
export class AnchorFieldReader {
  readonly problems: Problem[] = [];
  readonly options: AnchorOptions;

  constructor(options: Partial<AnchorOptions>) {
    this.options = { ...ANCHOR_DEFAULTS, ...options };
  }

  /** Full request name of an anchor field, e.g. `virtual_anchor.plane_normal`. */
  field(name: string): string {
    return `${this.options.fieldPrefix}.${name}`;
  }

  /** `anchor_type` may be omitted, but must match the endpoint when present. */
  anchorType(given: unknown, expected: string): void {
    if (given === undefined || given === expected) return;
    this.problems.push({
      field: this.field('anchor_type'),
      code: 'anchor_type_mismatch',
      message: `anchor_type is ${JSON.stringify(given)} but this endpoint takes ${JSON.stringify(expected)} (or omit it)`,
    });
  }

  /** A position, converted to Y-up. */
  point(value: unknown, name: string): Vec3 | undefined {
    const v = readVec3(value, this.field(name), this.problems, name);
    return v && toYUp(v, v, this.options.coordinateSystem);
  }

  /** A direction, normalised and converted to Y-up. */
  direction(value: unknown, name: string): Vec3 | undefined {
    const v = readDirection(value, this.field(name), this.problems, name);
    return v && toYUp(v, v, this.options.coordinateSystem);
  }

  /** A size or radius (> 0). */
  length(value: unknown, name: string): number | undefined {
    return readPositive(value, this.field(name), this.problems, name);
  }

  /** Throws an {@link AnchorValidationError} with everything collected, if anything was. */
  finish(): void {
    if (this.problems.length === 0) return;
    throw new AnchorValidationError(
      this.problems,
      this.options.fieldPrefix === 'reference_image' ? 'Invalid reference image' : 'Invalid virtual anchor',
    );
  }
}
