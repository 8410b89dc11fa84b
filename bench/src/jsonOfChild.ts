import { spawnSync } from 'node:child_process';

/**
 * What a bench script prints on stdout, as JSON, from a fresh process with room for a large
 * model's full read (16 GiB of heap, half an hour); undefined, with the end of its error on
 * stderr, when the process fails. `what` names the run in that line.
 *
 * @example
 * ```ts
 * const [fidelity] = jsonOfChild<FidelityResult[]>(FIDELITY_CLI, [path], 'fidelity') ?? [];
 * ```
 */
export function jsonOfChild<T>(script: string, args: readonly string[], what: string): T | undefined {
  const r = spawnSync(process.execPath, ['--max-old-space-size=16384', script, ...args], {
    encoding: 'utf8',
    timeout: 1_800_000,
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) {
    console.error(`  ${what} failed: ${r.stderr.slice(-400)}`);
    return undefined;
  }
  return JSON.parse(r.stdout) as T;
}
