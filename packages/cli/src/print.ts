import type { CommandIO } from './command.js';

/** Prints one JSON object and nothing else on stdout (the `--json` contract). */
export function printJson(io: CommandIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A refused input: problems on stderr for people, or one JSON object on stdout with `--json`. */
export function printError(
  io: CommandIO,
  json: boolean,
  code: string,
  problems: ReadonlyArray<{ field?: string; code?: string; message: string }>,
): void {
  if (json) {
    printJson(io, { error: { code, problems } });
    return;
  }
  io.stderr.write(`refused (${code}):\n`);
  for (const p of problems) io.stderr.write(`  - ${p.field ? `${p.field}: ` : ''}${p.message}\n`);
}
