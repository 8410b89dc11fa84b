/**
 * One attribute value of a STEP (ISO 10303-21) entity instance, as the file writes it. Every form
 * the standard allows has its own kind, so a reader can tell an unset attribute (`$`) from a
 * derived one (`*`) from an empty string, and never mistakes one for another.
 */
export type StepValue =
  /** `$`: the optional attribute has no value. */
  | { kind: 'unset' }
  /** `*`: the attribute is derived (its value follows from others); no value is written. */
  | { kind: 'derived' }
  /** `'…'`, decoded (escapes `''`, `\\`, `\S\`, `\P?\`, `\X\`, `\X2\`, `\X4\`). */
  | { kind: 'string'; value: string }
  | { kind: 'integer'; value: number }
  /** `1.5`, `1.`, `1.E-5`, `-2.5E+003`. */
  | { kind: 'real'; value: number }
  /** `.MILLI.`, `.T.`: the name between the dots. */
  | { kind: 'enum'; value: string }
  /** `#12`. */
  | { kind: 'reference'; id: number }
  /** `"0FF"`: hexadecimal digits, the first giving the unused bits of the last. */
  | { kind: 'binary'; value: string }
  /** `IFCLABEL('x')`: a value wrapped in its defined type. */
  | { kind: 'typed'; type: string; value: StepValue }
  /** `( … )`, possibly nested. */
  | { kind: 'list'; items: StepValue[] }
  /** Anything the standard does not allow: kept as text, and treated as no value. */
  | { kind: 'invalid'; text: string };

const UNSET: StepValue = { kind: 'unset' };

/**
 * The text of a string value, or of a string wrapped in a defined type (`IFCLABEL('x')`);
 * `undefined` for every other kind — unset, derived, a number, a reference.
 *
 * @example
 * ```ts
 * stepText({ kind: 'typed', type: 'IFCLABEL', value: { kind: 'string', value: 'Door' } }); // → 'Door'
 * stepText({ kind: 'derived' }); // → undefined
 * ```
 */
export function stepText(value: StepValue | undefined): string | undefined {
  const v = untyped(value);
  return v.kind === 'string' ? v.value : undefined;
}

/**
 * The number of an integer or real value, also wrapped in a defined type
 * (`IFCLENGTHMEASURE(2.1)`); `undefined` for every other kind.
 *
 * @example
 * ```ts
 * stepNumber({ kind: 'real', value: 2.1 }); // → 2.1
 * ```
 */
export function stepNumber(value: StepValue | undefined): number | undefined {
  const v = untyped(value);
  return v.kind === 'integer' || v.kind === 'real' ? v.value : undefined;
}

/**
 * The enumeration name of a value (`.MILLI.` → `'MILLI'`), also wrapped; `undefined` otherwise.
 *
 * @example
 * ```ts
 * stepEnum({ kind: 'enum', value: 'LENGTHUNIT' }); // → 'LENGTHUNIT'
 * ```
 */
export function stepEnum(value: StepValue | undefined): string | undefined {
  const v = untyped(value);
  return v.kind === 'enum' ? v.value : undefined;
}

/**
 * Every entity reference in a value, in order: `#5` → [5], `(#5,(#6,#7))` → [5, 6, 7], and
 * nothing for unset, derived or non-reference values.
 *
 * @example
 * ```ts
 * stepReferences({ kind: 'list', items: [{ kind: 'reference', id: 81 }, { kind: 'reference', id: 82 }] }); // → [81, 82]
 * ```
 */
export function stepReferences(value: StepValue | undefined): number[] {
  const out: number[] = [];
  const visit = (v: StepValue) => {
    if (v.kind === 'reference') out.push(v.id);
    else if (v.kind === 'list') for (const item of v.items) visit(item);
    else if (v.kind === 'typed') visit(v.value);
  };
  if (value) visit(value);
  return out;
}

function untyped(value: StepValue | undefined): StepValue {
  let v = value ?? UNSET;
  while (v.kind === 'typed') v = v.value;
  return v;
}
