/** One thing wrong with an input, named by the request field it came from. */
export interface Problem {
  /** The request field at fault, e.g. `alignment.corners` or `virtual_anchor.plane_normal`. */
  field: string;
  /** A stable machine-readable code, e.g. `non_finite`, `not_planar`, `mirrored_order`. */
  code: string;
  /** What is wrong, in words a client developer can act on. */
  message: string;
}

/**
 * Thrown when geometric input cannot be used. It lists **every** problem found rather than the
 * first, so a client can fix its request in one round trip.
 */
export class GeometryValidationError extends Error {
  /** Stable error code for the whole failure (`invalid_opening`, `invalid_anchor`, …). */
  readonly code: string;
  /** Every problem found; never empty. */
  readonly problems: readonly Problem[];
  /** The field of the first problem: the one to point at when only one can be shown. */
  readonly field: string;

  constructor(code: string, summary: string, problems: readonly Problem[]) {
    const first = problems[0];
    if (!first) throw new TypeError('GeometryValidationError needs at least one problem');
    super(`${summary}: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`);
    this.name = new.target.name;
    this.code = code;
    this.problems = problems;
    this.field = first.field;
  }
}

/** The corners and wall normal of a door opening are unusable (by_scan mode 2). */
export class OpeningValidationError extends GeometryValidationError {
  constructor(problems: readonly Problem[]) {
    super('invalid_opening', 'Invalid door opening', problems);
  }
}

/** The fields of a virtual anchor (or of a reference image, read the same way) are unusable. */
export class AnchorValidationError extends GeometryValidationError {
  constructor(problems: readonly Problem[], summary = 'Invalid virtual anchor') {
    super('invalid_anchor', summary, problems);
  }
}

/** Bounds, poses or correspondences that no transform can be computed from. */
export class DegenerateInputError extends GeometryValidationError {
  constructor(problems: readonly Problem[]) {
    super('degenerate_input', 'Degenerate geometric input', problems);
  }
}
