import type { CommandIO } from './command.js';

/** Prints one JSON object and nothing else on stdout (the `--json` contract). */
export function printJson(io: CommandIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

type Problems = ReadonlyArray<{ field?: string; code?: string; message: string }>;

/** A refused input: problems on stderr for people, or one JSON object on stdout with `--json`. */
export function printError(io: CommandIO, json: boolean, code: string, problems: Problems): void {
  const { fd, text } = errorText(json, code, problems);
  (fd === 1 ? io.stdout : io.stderr).write(text);
}

/**
 * A refusal as {@link printError} prints it, with where it goes (1 stdout, 2 stderr): for a report
 * written by someone else than this thread (the conversion deadline's watchdog).
 */
export function errorText(json: boolean, code: string, problems: Problems): { fd: 1 | 2; text: string } {
  if (json) return { fd: 1, text: `${JSON.stringify({ error: { code, problems } }, null, 2)}\n` };
  return { fd: 2, text: `refused (${code}):\n${problems.map((p) => `  - ${p.field ? `${p.field}: ` : ''}${p.message}\n`).join('')}` };
}
