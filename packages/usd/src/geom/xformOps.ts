import { mat4, quat } from 'gl-matrix';
import type { SdfValue } from '../sdf/SdfLayer.js';
import type { StagePrim, UsdStage } from '../stage/UsdStage.js';

/** A prim's own transform: column-major, and whether it ignores its parents' (`!resetXformStack!`). */
export interface LocalTransform {
  matrix: Float64Array;
  resetsXformStack: boolean;
}

const INVERT = '!invert!';
const RESET = '!resetXformStack!';
const DEG = Math.PI / 180;

/** A float64 identity: gl-matrix's own matrices are float32, too coarse for survey-placed models. */
function identity(): mat4 {
  return mat4.identity(new Float64Array(16) as unknown as mat4);
}

/**
 * The local transform of an Xformable prim from its `xformOpOrder`: each op (translate, scale,
 * rotateX/Y/Z, rotateXYZ … rotateZYX, orient, transform, with or without a `:suffix`, `!invert!`
 * for the inverse) as a matrix, composed so that the first op in the order is applied last, as
 * USD defines it (`[translate, rotateXYZ, scale]` scales, then rotates, then moves). Rotations
 * are in degrees; a rotateXYZ turns about X first. An op without a value is the identity.
 *
 * @example
 * ```ts
 * localTransform(stage, prim).matrix; // → Float64Array(16), column-major
 * ```
 */
export function localTransform(stage: UsdStage, prim: StagePrim): LocalTransform {
  const order = stage.value(prim, 'xformOpOrder');
  const ops = order?.kind === 'stringArray' ? order.value : order?.kind === 'tokenList' ? order.value : [];
  const m = identity();
  let resetsXformStack = false;
  for (const entry of ops) {
    if (entry === RESET) {
      resetsXformStack = true;
      mat4.identity(m);
      continue;
    }
    const inverted = entry.startsWith(INVERT);
    const name = inverted ? entry.slice(INVERT.length) : entry;
    const op = opMatrix(name, stage.value(prim, name));
    if (!op) continue;
    if (inverted && !mat4.invert(op, op)) continue; // a singular op has no inverse: USD skips it too
    mat4.multiply(m, m, op);
  }
  return { matrix: m as unknown as Float64Array, resetsXformStack };
}

/** The matrix of one op (`xformOp:rotateXYZ:pivot`) with its value, or `undefined` for none. */
function opMatrix(name: string, value: SdfValue | undefined): mat4 | undefined {
  const type = name.split(':')[1];
  if (!type || !value) return undefined;
  const v = numbers(value);
  const out = identity();
  switch (type) {
    case 'translate':
      return v.length >= 3 ? mat4.fromTranslation(out, [v[0]!, v[1]!, v[2]!]) : undefined;
    case 'scale':
      return v.length >= 3
        ? mat4.fromScaling(out, [v[0]!, v[1]!, v[2]!])
        : v.length === 1
          ? mat4.fromScaling(out, [v[0]!, v[0]!, v[0]!])
          : undefined;
    case 'rotateX':
      return v.length === 1 ? mat4.fromXRotation(out, v[0]! * DEG) : undefined;
    case 'rotateY':
      return v.length === 1 ? mat4.fromYRotation(out, v[0]! * DEG) : undefined;
    case 'rotateZ':
      return v.length === 1 ? mat4.fromZRotation(out, v[0]! * DEG) : undefined;
    case 'orient': {
      if (v.length !== 4) return undefined;
      const q = quat.fromValues(v[0]!, v[1]!, v[2]!, v[3]!);
      return quat.length(q) > 0 ? mat4.fromQuat(out, quat.normalize(q, q)) : undefined;
    }
    case 'transform':
      // USD's row-major matrix for row vectors is our column-major matrix for column vectors, as is.
      return v.length === 16 ? mat4.copy(out, v as unknown as mat4) : undefined;
    default: {
      const axes = /^rotate([XYZ]{3})$/.exec(type)?.[1];
      if (!axes || v.length !== 3) return undefined;
      // rotateXYZ turns about X first: M = Rz · Ry · Rx (column vectors).
      const angle = { X: v[0]!, Y: v[1]!, Z: v[2]! };
      for (const axis of axes) {
        const r =
          axis === 'X'
            ? mat4.fromXRotation(identity(), angle.X * DEG)
            : axis === 'Y'
              ? mat4.fromYRotation(identity(), angle.Y * DEG)
              : mat4.fromZRotation(identity(), angle.Z * DEG);
        mat4.multiply(out, r, out);
      }
      return out;
    }
  }
}

function numbers(value: SdfValue): number[] {
  if (value.kind === 'number') return [value.value];
  if (value.kind === 'tuple') return value.value;
  return [];
}
