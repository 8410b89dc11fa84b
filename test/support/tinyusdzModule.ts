import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import init, { type TinyUsdzModule } from 'tinyusdz';

let module: Promise<TinyUsdzModule> | undefined;

/**
 * TinyUSDZ (C++ built to WASM, Apache-2.0): an independent USD reader that shares no code with
 * ours, which the tests use to check what we write and read. Its npm build targets browsers only, so it starts with a browser-looking
 * global for the length of its
 * factory and gets its WASM bytes directly; one instance per thread.
 */
export function tinyusdzModule(): Promise<TinyUsdzModule> {
  module ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasm = readFileSync(require.resolve('tinyusdz').replace(/tinyusdz\.js$/, 'tinyusdz.wasm'));
    const g = globalThis as { window?: unknown };
    const proc = process as { type?: string };
    const hadWindow = 'window' in g,
      previousType = proc.type;
    g.window = globalThis;
    proc.type = 'renderer';
    try {
      return await init({ wasmBinary: wasm });
    } finally {
      if (!hadWindow) delete g.window;
      if (previousType === undefined) delete proc.type;
      else proc.type = previousType;
    }
  })();
  return module;
}
