import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runInThisContext } from 'node:vm';

/** What we use of Basis Universal's transcoder module (its Emscripten build has no typings). */
export interface BasisModule {
  initializeBasis(): void;
  KTX2File: new (bytes: Uint8Array) => Ktx2File;
  transcoder_texture_format: { cTFRGBA32: { value: number } };
}

/** A KTX2 container opened by the transcoder; `delete()` frees its WASM memory. */
export interface Ktx2File {
  isValid(): boolean;
  getWidth(): number;
  getHeight(): number;
  getLevels(): number;
  getFaces(): number;
  getLayers(): number;
  getHasAlpha(): boolean;
  startTranscoding(): boolean;
  getImageTranscodedSizeInBytes(level: number, layer: number, face: number, format: number): number;
  transcodeImage(
    out: Uint8Array,
    level: number,
    layer: number,
    face: number,
    format: number,
    getAlphaForOpaqueFormats: number,
    channel0: number,
    channel1: number,
  ): number;
  close(): void;
  delete(): void;
}

let module: Promise<BasisModule> | undefined;

/**
 * Basis Universal's transcoder (Binomial, Apache-2.0), built to WASM and shipped inside the
 * `three` package: the maintained decoder of KTX2 (UASTC and ETC1S, Zstandard supercompression
 * included), which runs in Node without a GPU. Its loader is a CommonJS script inside an ES
 * module package, so it is evaluated as the CommonJS module it is; one instance per thread.
 *
 * @example
 * ```ts
 * const basis = await basisTranscoder();
 * const file = new basis.KTX2File(bytes);
 * ```
 */
export function basisTranscoder(): Promise<BasisModule> {
  module ??= (async () => {
    const require = createRequire(import.meta.url);
    const script = require.resolve('three/examples/jsm/libs/basis/basis_transcoder.js');
    const exports: { exports: unknown } = { exports: {} };
    const wrapper = runInThisContext(`(function (module, exports, require, __filename, __dirname) {${readFileSync(script, 'utf8')}\n})`, {
      filename: script,
    });
    (wrapper as (...args: unknown[]) => void)(exports, exports.exports, require, script, script.replace(/[^/]*$/, ''));
    const factory = exports.exports as (options: { wasmBinary: Uint8Array }) => Promise<BasisModule>;
    const basis = await factory({ wasmBinary: readFileSync(script.replace(/\.js$/, '.wasm')) });
    basis.initializeBasis();
    return basis;
  })();
  return module;
}
