import { ModelUnreadableError } from '../errors/ConvertError.js';

const GLB_MAGIC = 0x46546c67,
  JSON_CHUNK = 0x4e4f534a,
  BIN_CHUNK = 0x004e4942;

/** A GLB as its two chunks: the JSON parsed, the binary chunk as a view into the file (not a copy). */
export interface GlbChunks<Json = Record<string, unknown>> {
  json: Json;
  bin: Uint8Array;
}

/**
 * Splits a GLB into its JSON (parsed) and its binary chunk (a view; empty when there is none).
 *
 * @example
 * ```ts
 * const { json, bin } = readGlbChunks<{ nodes?: unknown[] }>(glb);
 * ```
 */
export function readGlbChunks<Json = Record<string, unknown>>(glb: Uint8Array): GlbChunks<Json> {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (glb.length < 20 || view.getUint32(0, true) !== GLB_MAGIC || view.getUint32(12 + 4, true) !== JSON_CHUNK)
    throw new ModelUnreadableError('not a GLB with its JSON chunk first');
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as Json;
  const binAt = 20 + jsonLength;
  const bin =
    binAt + 8 <= glb.length && view.getUint32(binAt + 4, true) === BIN_CHUNK
      ? glb.subarray(binAt + 8, binAt + 8 + view.getUint32(binAt, true))
      : new Uint8Array(0);
  return { json, bin };
}

/**
 * A GLB from its JSON and its binary chunk given as parts in order (views, not copied): the file
 * as parts, to be concatenated or streamed. The JSON is padded with spaces and the binary chunk
 * with zeros to 4 bytes, as GLB asks; a binary chunk of no bytes is left out.
 *
 * @example
 * ```ts
 * const file = Buffer.concat(glbParts(json, [bin]));
 * ```
 */
export function glbParts(json: unknown, bin: readonly Uint8Array[]): Uint8Array[] {
  const jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const jsonPadded = align4(jsonBytes.length);
  const binLength = bin.reduce((n, b) => n + b.length, 0);
  const binPadded = align4(binLength);
  const total = 12 + 8 + jsonPadded + (binLength > 0 ? 8 + binPadded : 0);
  const header = new Uint8Array(12 + 8);
  const h = new DataView(header.buffer);
  h.setUint32(0, GLB_MAGIC, true);
  h.setUint32(4, 2, true);
  h.setUint32(8, total, true);
  h.setUint32(12, jsonPadded, true);
  h.setUint32(16, JSON_CHUNK, true);
  const parts = [header, jsonBytes, new Uint8Array(jsonPadded - jsonBytes.length).fill(0x20)];
  if (binLength === 0) return parts;
  const binHeader = new Uint8Array(8);
  const bh = new DataView(binHeader.buffer);
  bh.setUint32(0, binPadded, true);
  bh.setUint32(4, BIN_CHUNK, true);
  return [...parts, binHeader, ...bin, new Uint8Array(binPadded - binLength)];
}

/** `n` rounded up to a multiple of 4. */
export function align4(n: number): number {
  return (n + 3) & ~3;
}
