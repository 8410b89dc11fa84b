import { execFile } from 'node:child_process';

/** Options of {@link compileReality}. */
export interface CompileRealityOptions {
  timeoutMs: number;
}

/** Defaults of {@link compileReality}. */
export const COMPILE_REALITY_DEFAULTS: Readonly<CompileRealityOptions> = { timeoutMs: 120_000 };

/**
 * Makes a Reality file with the operator's external compiler, run as
 * `<command> <input.usdz> <output.reality>` (contract.md: Apple publishes no writer, so there is
 * none in this process). The command is split on spaces and run without a shell.
 *
 * @returns whether the compiler exited 0; its complaint otherwise, for the log.
 * @example
 * ```ts
 * const ok = await compileReality('/usr/local/bin/realityconvert', 'a.usdz', 'a.reality');
 * ```
 */
export function compileReality(
  command: string,
  input: string,
  output: string,
  options: Partial<CompileRealityOptions> = {},
): Promise<{ ok: true } | { ok: false; message: string }> {
  const { timeoutMs } = { ...COMPILE_REALITY_DEFAULTS, ...options };
  const [program, ...args] = command.trim().split(/\s+/);
  return new Promise((resolve) => {
    execFile(program!, [...args, input, output], { timeout: timeoutMs, maxBuffer: 1 << 20 }, (err, _stdout, stderr) => {
      resolve(err ? { ok: false, message: `${err.message.split('\n')[0]} ${String(stderr).slice(0, 500)}`.trim() } : { ok: true });
    });
  });
}
