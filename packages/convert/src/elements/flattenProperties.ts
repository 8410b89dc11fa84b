import type { PropertyValue } from './ElementRecord.js';

/** Options of {@link flattenProperties}. */
export interface FlattenPropertiesOptions {
  /** Properties kept of one value, the first met: a file's extras can be of any size. */
  maxProperties: number;
  /** Levels of nesting followed; deeper values are kept as their JSON text. */
  maxDepth: number;
  /** Longest list kept; a longer one (a mesh's runs of triangles) is data, not a property, and left out. */
  maxListLength: number;
}

/** Defaults of {@link flattenProperties}. */
export const FLATTEN_PROPERTIES_DEFAULTS: Readonly<FlattenPropertiesOptions> = { maxProperties: 256, maxDepth: 8, maxListLength: 256 };

/**
 * A JSON-like value (a glTF `extras`, a USD dictionary read as plain data) as one property set:
 * nested objects' keys joined with dots, scalars and lists of scalars as they are, any other list
 * as its JSON text, lists past `maxListLength` left out. A scalar at the top is the property `value`.
 *
 * @example
 * ```ts
 * flattenProperties({ fireRating: 'EI60', size: { w: 0.9, h: 2.1 } }); // → { fireRating: 'EI60', 'size.w': 0.9, 'size.h': 2.1 }
 * ```
 */
export function flattenProperties(value: unknown, options: Partial<FlattenPropertiesOptions> = {}): Record<string, PropertyValue> {
  const { maxProperties, maxDepth, maxListLength } = { ...FLATTEN_PROPERTIES_DEFAULTS, ...options };
  const out = Object.create(null) as Record<string, PropertyValue>;
  let count = 0;
  const put = (key: string, v: PropertyValue) => {
    if (count < maxProperties) {
      out[key] = v;
      count++;
    }
  };
  const visit = (key: string, v: unknown, depth: number): void => {
    if (count >= maxProperties) return;
    if (isScalar(v)) put(key, v);
    else if (Array.isArray(v)) {
      if (v.length <= maxListLength) put(key, v.every(isScalar) ? v : JSON.stringify(v));
    } else if (typeof v === 'object' && v !== null && depth < maxDepth)
      for (const [k, inner] of Object.entries(v)) visit(key ? `${key}.${k}` : k, inner, depth + 1);
    else if (typeof v === 'object' && v !== null) put(key, JSON.stringify(v));
  };
  visit('', value, 0);
  // A lone scalar has no key of its own.
  if ('' in out) {
    out.value = out[''] as PropertyValue;
    delete out[''];
  }
  return out;
}

function isScalar(v: unknown): v is string | number | boolean | null {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}
