import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { EXIT, type CommandIO } from './command.js';
import { printError } from './print.js';

/** Reads a model file for a command, reporting a missing or unreadable file as a refused input. */
export async function readModelFile(io: CommandIO, path: string, json: boolean): Promise<{ bytes: Uint8Array; fileName: string } | number> {
  try {
    return { bytes: new Uint8Array(await readFile(path)), fileName: basename(path) };
  } catch (err) {
    printError(io, json, 'file_unreadable', [
      { message: `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` },
    ]);
    return EXIT.refused;
  }
}
