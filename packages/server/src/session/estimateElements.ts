import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { detectFormat, IfcElementCounter } from '@arsession/convert';

/** Options of {@link estimateElements}. */
export interface EstimateElementsOptions {
  /** Bytes of IFC text read at most; past them the count is scaled by the file's size. */
  scanBytes: number;
  /**
   * Largest GLB JSON chunk read for its nodes. It is parsed in one piece on the API node, which
   * serves nothing else meanwhile: 8 MB (some 120,000 nodes) takes about a tenth of a second.
   * A GLB with more is not counted, and its share of the budget goes by its bytes.
   */
  maxGlbJsonBytes: number;
}

/** Defaults of {@link estimateElements}. */
export const ESTIMATE_ELEMENTS_DEFAULTS: Readonly<EstimateElementsOptions> = {
  scanBytes: 64 * 2 ** 20,
  maxGlbJsonBytes: 8 * 2 ** 20,
};

const HEAD_BYTES = 64 * 1024;
const ZIP_LOCAL_HEADER = 0x04034b50;
const GLB_JSON_CHUNK = 0x4e4f534a;

/**
 * About how many elements with a shape an uploaded model draws, without converting it: an IFC's
 * (and an `.ifczip`'s IFC's) product shapes less openings and spaces ({@link IfcElementCounter}),
 * a GLB's nodes with a mesh; `undefined` for a USDZ, anything else, or a file it cannot read
 * (the conversion then says what is wrong). Only text is scanned, so it is safe on the API node;
 * past `scanBytes` of IFC text the count is scaled by size. What a session's models' budget
 * shares are made from, before any of them is converted.
 *
 * @example
 * ```ts
 * await estimateElements('uploads/duplex.ifc'); // → 215
 * ```
 */
export async function estimateElements(path: string, options: Partial<EstimateElementsOptions> = {}): Promise<number | undefined> {
  const { scanBytes, maxGlbJsonBytes } = { ...ESTIMATE_ELEMENTS_DEFAULTS, ...options };
  try {
    const head = await readRange(path, 0, HEAD_BYTES);
    switch (detectFormat(head)) {
      case 'ifc':
        return await countIfc(createReadStream(path, { end: Math.floor(scanBytes) - 1 }), Math.floor(scanBytes), await sizeOf(path));
      case 'ifczip':
        return await countIfcZip(path, head, scanBytes);
      case 'glb':
        return await countGlbNodes(path, head, maxGlbJsonBytes);
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

/** Elements of IFC text from `stream`, which holds at most `scanBytes` of `totalBytes`: scaled when cut short. */
async function countIfc(stream: AsyncIterable<Buffer>, scanBytes: number, totalBytes: number | undefined): Promise<number> {
  const counter = new IfcElementCounter();
  let read = 0;
  for await (const chunk of stream) {
    const take = chunk.subarray(0, Math.max(0, scanBytes - read));
    counter.feed(take);
    read += take.length;
    if (read >= scanBytes) break;
  }
  const whole = totalBytes === undefined || read >= totalBytes || read === 0;
  return whole ? counter.elements() : Math.round((counter.elements() * totalBytes) / read);
}

/** The first `.ifc` entry of a zip whose local header lies in `head`, inflated as it streams and counted. */
async function countIfcZip(path: string, head: Uint8Array, scanBytes: number): Promise<number | undefined> {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  for (let at = 0; at + 30 <= head.length && view.getUint32(at, true) === ZIP_LOCAL_HEADER; ) {
    const flags = view.getUint16(at + 6, true),
      method = view.getUint16(at + 8, true),
      compressed = view.getUint32(at + 18, true),
      size = view.getUint32(at + 22, true),
      nameLength = view.getUint16(at + 26, true),
      extraLength = view.getUint16(at + 28, true);
    const name = new TextDecoder('latin1').decode(head.subarray(at + 30, at + 30 + nameLength));
    const data = at + 30 + nameLength + extraLength;
    // Sizes written after the data (flag bit 3) are not known here: only a deflated entry can be read then.
    const sized = (flags & 0x08) === 0;
    if (/\.ifc$/i.test(name)) {
      if (method === 0 && sized) return countIfc(createReadStream(path, { start: data, end: data + compressed - 1 }), scanBytes, size);
      if (method !== 8) return undefined;
      const raw = createReadStream(path, { start: data, ...(sized && { end: data + compressed - 1 }) });
      const inflated = raw.pipe(createInflateRaw());
      // A read error does not travel down a pipe: passed on, it ends the count instead of the process.
      raw.on('error', (err) => inflated.destroy(err));
      try {
        return await countIfc(inflated, scanBytes, sized ? size : undefined);
      } finally {
        raw.destroy();
        inflated.destroy();
      }
    }
    if (!sized) return undefined;
    at = data + compressed;
  }
  return undefined;
}

/** A GLB's nodes that draw a mesh, from its JSON chunk. */
async function countGlbNodes(path: string, head: Uint8Array, maxJsonBytes: number): Promise<number | undefined> {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (head.length < 20 || view.getUint32(16, true) !== GLB_JSON_CHUNK) return undefined;
  const length = view.getUint32(12, true);
  if (length > maxJsonBytes) return undefined;
  const json = JSON.parse(new TextDecoder().decode(await readRange(path, 20, length))) as GlbJson;
  let elements = 0;
  for (const node of Array.isArray(json.nodes) ? json.nodes : []) {
    if (node === null || typeof node !== 'object' || node.mesh === undefined) continue;
    // A node instanced on the GPU draws its mesh once per instance: the reader makes each an element.
    const attributes = node.extensions?.EXT_mesh_gpu_instancing?.attributes;
    const accessor = attributes && Object.values(attributes)[0];
    const instances = typeof accessor === 'number' ? json.accessors?.[accessor]?.count : undefined;
    elements += typeof instances === 'number' && instances >= 0 ? instances : 1;
  }
  return elements;
}

/** What {@link countGlbNodes} reads of a glTF's JSON; anything may be missing or of another type. */
interface GlbJson {
  nodes?: Array<{ mesh?: unknown; extensions?: { EXT_mesh_gpu_instancing?: { attributes?: Record<string, unknown> } } } | null>;
  accessors?: Array<{ count?: unknown } | undefined>;
}

async function readRange(path: string, start: number, length: number): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const bytes = new Uint8Array(length);
    const { bytesRead } = await file.read(bytes, 0, length, start);
    return bytes.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

async function sizeOf(path: string): Promise<number> {
  const file = await open(path, 'r');
  try {
    return (await file.stat()).size;
  } finally {
    await file.close();
  }
}
