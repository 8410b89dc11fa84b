import type { SdfValue } from '../sdf/SdfLayer.js';
import type { StagePrim, UsdStage } from '../stage/UsdStage.js';

/** How a primvar's values map onto a mesh (UsdGeom interpolation). */
export type Interpolation = 'constant' | 'uniform' | 'varying' | 'vertex' | 'faceVarying';

/** A primvar's values, flattened, with how many components each element has and how they map. */
export interface Primvar {
  values: Float64Array;
  size: number;
  interpolation: Interpolation;
  /** Indexed primvars: element `i` is `values[indices[i]]`. */
  indices?: Int32Array;
}

const INTERPOLATIONS = new Set(['constant', 'uniform', 'varying', 'vertex', 'faceVarying']);

/**
 * A numeric primvar (or plain attribute, such as `normals`) of a prim: its values, their
 * interpolation (the attribute's `interpolation` metadatum, else `fallback`) and, for an indexed
 * primvar, its `<name>:indices`. `undefined` when the attribute has no numeric array value.
 *
 * @example
 * ```ts
 * readPrimvar(stage, mesh, 'primvars:st', 'constant'); // → { values, size: 2, interpolation: 'faceVarying', indices }
 * ```
 */
export function readPrimvar(stage: UsdStage, prim: StagePrim, name: string, fallback: Interpolation): Primvar | undefined {
  const v = stage.value(prim, name);
  const array = numericArray(v);
  if (!array) return undefined;
  const declared = stage.propertyField(prim, name, 'interpolation');
  const text = declared && (declared.kind === 'token' || declared.kind === 'string') ? declared.value : undefined;
  const interpolation = (text && INTERPOLATIONS.has(text) ? text : fallback) as Interpolation;
  const indexValue = stage.value(prim, `${name}:indices`);
  const indices =
    indexValue?.kind === 'array' && (indexValue.value instanceof Int32Array || indexValue.value instanceof Uint32Array)
      ? Int32Array.from(indexValue.value)
      : undefined;
  return { ...array, interpolation, ...(indices && { indices }) };
}

/** The values of a numeric array (or a single tuple, as a one-element array). */
export function numericArray(v: SdfValue | undefined): { values: Float64Array; size: number } | undefined {
  if (v?.kind === 'array' && !(v.value instanceof Uint8Array) && v.size > 0) return { values: Float64Array.from(v.value), size: v.size };
  if (v?.kind === 'tuple' && v.value.length > 0) return { values: Float64Array.from(v.value), size: v.value.length };
  if (v?.kind === 'number') return { values: Float64Array.of(v.value), size: 1 };
  return undefined;
}
