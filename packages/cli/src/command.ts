import type { Writable } from 'node:stream';

/** Where a command writes. Tests pass buffers; the binary passes the process streams. */
export interface CommandIO {
  stdout: Pick<Writable, 'write'> & { isTTY?: boolean };
  stderr: Pick<Writable, 'write'> & { isTTY?: boolean };
}

/** One `arsession` sub-command. */
export interface Command {
  name: string;
  /** One line for `--help`. */
  summary: string;
  /** Usage text shown by `arsession NAME --help` and on a usage error. */
  usage: string;
  /**
   * More of the usage text, after `usage`, made from a module the command loads only when it
   * runs (serve's settings table): every other command starts without it.
   */
  usageMore?: () => Promise<string>;
  /** Runs the command; resolves to the process exit code. */
  run(args: string[], io: CommandIO): Promise<number>;
}

/** A command's whole usage text: `usage`, then what `usageMore` loads. */
export async function usageOf(command: Command): Promise<string> {
  return command.usageMore ? `${command.usage}\n\n${await command.usageMore()}` : command.usage;
}

/** Wrong flags or arguments: exit code 2 with the usage text. */
export class UsageError extends Error {}

/** Exit codes: 0 success, 1 the input was refused (a clear message says why), 2 wrong usage. */
export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;
