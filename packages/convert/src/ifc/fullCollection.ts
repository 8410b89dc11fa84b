import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

/**
 * V8's full collection, as `--expose-gc` gives it, or `undefined` where it cannot be had. The flag
 * is set at run time and the function taken from a fresh context, as Jest's leak detector does: a
 * process started without the flag has no other way to ask for one.
 *
 * @example
 * ```ts
 * fullCollection()?.();
 * ```
 */
export function fullCollection(): (() => void) | undefined {
  if (collect === undefined) {
    const exposed = (globalThis as { gc?: unknown }).gc;
    if (typeof exposed === 'function') collect = exposed as () => void;
    else {
      try {
        setFlagsFromString('--expose-gc');
        const made: unknown = runInNewContext('gc');
        collect = typeof made === 'function' ? (made as () => void) : null;
      } catch {
        collect = null;
      }
    }
  }
  return collect ?? undefined;
}
