/**
 * Length of the vector (x, y, z). Math.hypot guards against an overflow that coordinates in
 * metres never reach, and costs several times more in the distance bounds' hot loops.
 *
 * @example
 * ```ts
 * vectorLength(3, 4, 12); // → 13
 * ```
 */
export function vectorLength(x: number, y: number, z: number): number {
  return Math.sqrt(x * x + y * y + z * z);
}
