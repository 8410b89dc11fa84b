import { EXIT, UsageError, usageOf, type Command, type CommandIO } from './command.js';
import { convertCommand } from './commands/convert.js';
import { inspectCommand } from './commands/inspect.js';
import { openingCommand } from './commands/opening.js';
import { detectDoorCommand } from './commands/detectDoor.js';
import { keysCommand } from './commands/keys.js';
import { serveCommand } from './commands/serve.js';
import { benchCommand } from './commands/bench.js';

/** Every sub-command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  serveCommand,
  keysCommand,
  convertCommand,
  inspectCommand,
  openingCommand,
  detectDoorCommand,
  benchCommand,
];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: arsession <command> [options]',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'arsession <command> --help' for a command's options; 'arsession --version' for the converter's version.",
    '',
  ].join('\n');
}

/**
 * Runs the CLI with `argv` (without the node and script paths) and resolves to the exit code.
 * Exported so tests drive the real commands in-process.
 */
export async function main(argv: string[], io: CommandIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(help());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    // The version's module alone: the answer comes before anything a command needs loads.
    const { CONVERTER_VERSION } = await import('@arsession/convert/version');
    io.stdout.write(`arsession ${CONVERTER_VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`arsession: unknown command '${name}'\n\n${help()}`);
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`usage: ${await usageOf(command)}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or malformed flags.
    const parseError = (err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS');
    if (err instanceof UsageError || parseError) {
      io.stderr.write(`arsession ${name}: ${(err as Error).message}\n\nusage: ${await usageOf(command)}\n`);
      return EXIT.usage;
    }
    throw err;
  }
}
