import { ModelUnreadableError } from '../errors/ConvertError.js';

const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;

/** The parts of a glTF JSON document the mesh-node count needs; everything else passes through untyped. */
export interface GltfJson {
  asset?: { version?: string };
  nodes?: Array<{ mesh?: number; extensions?: Record<string, unknown> } & Record<string, unknown>>;
  accessors?: Array<{ count?: number } & Record<string, unknown>>;
  extensionsUsed?: string[];
  extensionsRequired?: string[];
  [key: string]: unknown;
}

/**
 * Reads the JSON chunk of a GLB (binary glTF 2.0) without touching its buffers, checking the
 * header against the real byte length so a truncated or lying file fails here, cheaply.
 *
 * @example
 * ```ts
 * const json = readGlbJson(readFileSync('Box.glb'), 'Box.glb');
 * json.nodes?.length; // → 2
 * ```
 */
export function readGlbJson(bytes: Uint8Array, fileName?: string): GltfJson {
  const fail = (why: string) => new ModelUnreadableError(`${fileName ?? 'GLB'}: ${why}`, { fileName });
  if (bytes.length < 20) throw fail(`only ${bytes.length} bytes; a GLB has a 12-byte header and a JSON chunk`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC) throw fail('missing the glTF magic');
  const version = view.getUint32(4, true);
  if (version !== 2) throw fail(`glTF container version ${version}; only version 2 is supported`);
  const declared = view.getUint32(8, true);
  if (declared > bytes.length) throw fail(`header declares ${declared} bytes but the file has ${bytes.length} (truncated?)`);
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== CHUNK_JSON) throw fail('first chunk is not JSON');
  if (20 + jsonLength > declared) throw fail(`JSON chunk of ${jsonLength} bytes runs past the end of the file`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(20, 20 + jsonLength)));
  } catch (err) {
    throw fail(`JSON chunk is not valid JSON (${(err as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw fail('JSON chunk is not an object');
  return json as GltfJson;
}
