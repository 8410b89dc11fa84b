// What `arsession serve` loads before the server: nothing of the server itself, so that traces,
// when asked for, are started before express, pg and ioredis are loaded.
import { parseArgs } from 'node:util';
import type { RunningTracing } from './startTracing.js';
import { tracesRequested } from './tracesRequested.js';

export { tracesRequested } from './tracesRequested.js';
export type { RunningTracing, TracingOptions } from './startTracing.js';

/**
 * Starts traces for `arsession serve <args>` when the environment asks for them
 * ({@link tracesRequested}), the role taken from `--role`; otherwise loads nothing and answers
 * `undefined`.
 *
 * @example
 * ```ts
 * const tracing = await startTracingIfRequested(['--role', 'worker'], process.env);
 * // … run the server, then:
 * await tracing?.shutdown();
 * ```
 */
export async function startTracingIfRequested(
  serveArgs: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<RunningTracing | undefined> {
  if (!tracesRequested(env)) return undefined;
  // The serve command checks its arguments itself; here only the role is wanted, for the resource.
  const { values } = parseArgs({ args: [...serveArgs], options: { role: { type: 'string' } }, strict: false });
  const role = typeof values.role === 'string' ? values.role : 'all';
  const { startTracing } = await import('./startTracing.js');
  return startTracing({ role });
}
