import { ModelUnreadableError } from '../errors/ConvertError.js';
import type { GltfJson } from './readGlbJson.js';

const CHUNK_BIN = 0x004e4942;
const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

interface BufferViewJson {
  buffer?: number;
  byteOffset?: number;
  byteLength?: number;
  byteStride?: number;
  extensions?: Record<string, unknown>;
}
interface AccessorJson {
  bufferView?: number;
  byteOffset?: number;
  componentType?: number;
  count?: number;
  type?: string;
  sparse?: unknown;
}

/**
 * Checks that a GLB's JSON tells the truth about its binary layout before any decoder trusts it:
 * the BIN chunk fits in the file, every buffer fits in its data, every buffer view in its buffer,
 * every accessor in its buffer view. Decoders read what they are told; a file that lies about
 * lengths would otherwise yield silent garbage or read out of bounds.
 *
 * @example
 * ```ts
 * checkGlbLayout(bytes, readGlbJson(bytes), 'tower.glb'); // throws ModelUnreadableError naming the lie
 * ```
 */
export function checkGlbLayout(bytes: Uint8Array, json: GltfJson, fileName?: string): void {
  const fail = (why: string) => new ModelUnreadableError(`${fileName ?? 'GLB'}: ${why}`, fileName === undefined ? {} : { fileName });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const total = view.getUint32(8, true);
  const jsonLength = view.getUint32(12, true);
  let binLength: number | undefined;
  let at = 20 + jsonLength;
  while (at + 8 <= total) {
    const length = view.getUint32(at, true),
      type = view.getUint32(at + 4, true);
    if (at + 8 + length > total) throw fail(`a chunk declares ${length} bytes but only ${total - at - 8} remain (truncated?)`);
    if (type === CHUNK_BIN && binLength === undefined) binLength = length;
    at += 8 + length;
  }

  const buffers = asArray<{ byteLength?: number; uri?: string; extensions?: Record<string, unknown> }>(json.buffers, 'buffers', fail);
  const bufferSizes = buffers.map((b, i) => {
    if (!Number.isInteger(b.byteLength) || b.byteLength! < 0) throw fail(`buffer ${i} has no valid byteLength`);
    if (b.uri !== undefined && typeof b.uri !== 'string') throw fail(`buffer ${i} has a uri that is not a string`);
    if (b.uri !== undefined) {
      if (!b.uri.startsWith('data:')) throw fail(`buffer ${i} refers to an external file (${b.uri}); a GLB must be self-contained`);
      return b.byteLength!;
    }
    // A meshopt fallback buffer carries no data on purpose: its views are decoded from another buffer.
    const fallback = (b.extensions?.EXT_meshopt_compression as { fallback?: boolean } | undefined)?.fallback === true;
    if (fallback) return Infinity;
    if (i !== 0) throw fail(`buffer ${i} has neither a uri nor the GLB's binary chunk`);
    if (binLength === undefined) throw fail('buffer 0 needs the binary chunk, but the file has none');
    if (b.byteLength! > binLength) throw fail(`buffer 0 declares ${b.byteLength} bytes but the binary chunk holds ${binLength}`);
    return b.byteLength!;
  });

  const views = asArray<BufferViewJson>(json.bufferViews, 'bufferViews', fail);
  views.forEach((v, i) => {
    if (!isCount(v.byteOffset)) throw fail(`bufferView ${i} has an invalid byteOffset (${JSON.stringify(v.byteOffset)})`);
    if (!isCount(v.byteStride)) throw fail(`bufferView ${i} has an invalid byteStride (${JSON.stringify(v.byteStride)})`);
    const size = bufferSizes[v.buffer ?? -1];
    if (size === undefined) throw fail(`bufferView ${i} refers to buffer ${v.buffer}, which does not exist`);
    const end = (v.byteOffset ?? 0) + (v.byteLength ?? -1);
    if (!(v.byteLength! >= 0) || end > size)
      throw fail(`bufferView ${i} (bytes ${v.byteOffset ?? 0}–${end}) runs past the end of buffer ${v.buffer} (${size} bytes)`);
    const meshopt = v.extensions?.EXT_meshopt_compression as { buffer?: number; byteOffset?: number; byteLength?: number } | undefined;
    if (meshopt) {
      const src = bufferSizes[meshopt.buffer ?? -1];
      const mEnd = (meshopt.byteOffset ?? 0) + (meshopt.byteLength ?? -1);
      if (src === undefined || !(meshopt.byteLength! >= 0) || mEnd > src)
        throw fail(`bufferView ${i}'s compressed data runs past the end of buffer ${meshopt.buffer}`);
    }
  });

  const accessors = asArray<AccessorJson>(json.accessors, 'accessors', fail);
  // Decoders allocate what accessors and compressed views claim, whatever the file holds (zero-filled
  // or Draco/meshopt-decoded data): bound the total, so a tiny file cannot demand gigabytes.
  const budget = Math.min(4 * 2 ** 30, Math.max(256 * 2 ** 20, 32 * bytes.length));
  let claimed = views.reduce(
    (n, v) => n + ((v.extensions?.EXT_meshopt_compression as { byteLength?: number } | undefined)?.byteLength ?? 0),
    0,
  );
  accessors.forEach((a, i) => {
    const components = TYPE_COMPONENTS[a.type ?? ''],
      bytesPer = COMPONENT_BYTES[a.componentType ?? -1];
    if (!components || !bytesPer) throw fail(`accessor ${i} has an unknown type or component type`);
    if (!Number.isInteger(a.count) || a.count! < 1) throw fail(`accessor ${i} has an invalid count (${a.count})`);
    claimed += a.count! * components * bytesPer;
    if (claimed > budget)
      throw fail(
        `its accessors claim more than ${Math.round(budget / 2 ** 20)} MiB of data, out of proportion to a ${bytes.length}-byte file`,
      );
    if (!isCount(a.byteOffset)) throw fail(`accessor ${i} has an invalid byteOffset (${JSON.stringify(a.byteOffset)})`);
    if (a.bufferView === undefined) return; // all zeros (or sparse / Draco-decoded): nothing to bound
    const v = views[a.bufferView];
    if (!v) throw fail(`accessor ${i} refers to bufferView ${a.bufferView}, which does not exist`);
    const element = components * bytesPer;
    const stride = v.byteStride ?? element;
    const needed = (a.byteOffset ?? 0) + stride * (a.count! - 1) + element;
    if (needed > (v.byteLength ?? 0)) {
      throw fail(
        `accessor ${i} claims ${a.count} elements (${needed} bytes) but its bufferView ${a.bufferView} holds ${v.byteLength} bytes`,
      );
    }
  });
}

/** An optional offset or stride: absent, or a whole number of bytes. */
function isCount(value: unknown): boolean {
  return value === undefined || (Number.isInteger(value) && (value as number) >= 0);
}

function asArray<T>(value: unknown, name: string, fail: (why: string) => Error): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw fail(`"${name}" is not an array`);
  return value.map((item, i) => {
    if (typeof item !== 'object' || item === null) throw fail(`${name}[${i}] is not an object`);
    return item as T;
  });
}
