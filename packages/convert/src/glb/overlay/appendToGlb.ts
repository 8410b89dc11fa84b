import { ModelUnreadableError } from '../../errors/ConvertError.js';
import { align4, glbParts, readGlbChunks } from '../glbChunks.js';
import { overlayMeshes, type OverlayShapes } from './overlayShapes.js';

const FLOAT = 5126,
  UNSIGNED_INT = 5125,
  ARRAY_BUFFER = 34962,
  ELEMENT_ARRAY_BUFFER = 34963;

/** Options of {@link appendToGlb}. */
export interface AppendToGlbOptions {
  /** Name of the node that holds the overlay. */
  name: string;
}

/** Defaults of {@link appendToGlb}. */
export const APPEND_TO_GLB_DEFAULTS: Readonly<AppendToGlbOptions> = { name: 'overlay' };

// The parts of glTF's JSON this touches; everything else is kept as it came.
interface GltfJson {
  asset: unknown;
  buffers?: Array<{ byteLength: number; uri?: string }>;
  bufferViews?: Array<Record<string, unknown>>;
  accessors?: Array<Record<string, unknown>>;
  images?: Array<Record<string, unknown>>;
  textures?: Array<Record<string, unknown>>;
  materials?: Array<Record<string, unknown>>;
  meshes?: Array<Record<string, unknown>>;
  nodes?: Array<Record<string, unknown>>;
  scenes?: Array<{ nodes?: number[] }>;
  scene?: number;
  [key: string]: unknown;
}

/**
 * Adds overlay shapes ({@link OverlayShapes}) to a GLB as one more node of its scene, without
 * decoding or copying what is there: the JSON gains buffer views, accessors, materials (unlit-looking:
 * emissive in their colour), meshes and the node, and the binary chunk gains their data after the
 * model's. Returns the new GLB as parts in order (the model's binary chunk is one of them, not a copy).
 *
 * @example
 * ```ts
 * const parts = appendToGlb(glb, { lines: [{ from: [0, 0, 0], to: [0, 1, 0], color: [0, 1, 0] }], arrows: [], quads: [], thickness: 0.01
 * });
 * ```
 */
export function appendToGlb(glb: Uint8Array, shapes: OverlayShapes, options: Partial<AppendToGlbOptions> = {}): Uint8Array[] {
  const { name } = { ...APPEND_TO_GLB_DEFAULTS, ...options };
  const { json, bin } = readGlbChunks<GltfJson>(glb);

  const buffers = (json.buffers ??= []);
  if (buffers.length === 0) buffers.push({ byteLength: 0 });
  if (buffers[0]!.uri !== undefined) throw new ModelUnreadableError("the GLB's first buffer is not its binary chunk");
  // The model's data keeps its place; ours follows it, each view on a 4-byte boundary.
  const start = align4(bin.length);
  const added: Uint8Array[] = [];
  let at = start;
  const put = (bytes: Uint8Array, target?: number): number => {
    const padding = align4(at) - at;
    if (padding) added.push(new Uint8Array(padding));
    at += padding;
    const index = (json.bufferViews ??= []).push({ buffer: 0, byteOffset: at, byteLength: bytes.length, ...(target && { target }) }) - 1;
    added.push(bytes);
    at += bytes.length;
    return index;
  };
  const accessor = (data: Float32Array | Uint32Array, type: 'VEC3' | 'VEC2' | 'SCALAR', target: number, bounds = false): number => {
    const bufferView = put(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), target);
    const size = type === 'VEC3' ? 3 : type === 'VEC2' ? 2 : 1;
    const extra: Record<string, unknown> = {};
    if (bounds) {
      const min = [Infinity, Infinity, Infinity],
        max = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < data.length; i++) {
        min[i % 3] = Math.min(min[i % 3]!, data[i]!);
        max[i % 3] = Math.max(max[i % 3]!, data[i]!);
      }
      Object.assign(extra, { min, max });
    }
    return (
      (json.accessors ??= []).push({
        bufferView,
        componentType: data instanceof Float32Array ? FLOAT : UNSIGNED_INT,
        count: data.length / size,
        type,
        ...extra,
      }) - 1
    );
  };

  const children: number[] = [];
  for (const mesh of overlayMeshes(shapes)) {
    const attributes: Record<string, number> = {
      POSITION: accessor(mesh.positions, 'VEC3', ARRAY_BUFFER, true),
      NORMAL: accessor(mesh.normals, 'VEC3', ARRAY_BUFFER),
    };
    if (mesh.uvs) attributes.TEXCOORD_0 = accessor(mesh.uvs, 'VEC2', ARRAY_BUFFER);
    const indices = accessor(mesh.indices, 'SCALAR', ELEMENT_ARRAY_BUFFER);
    const [r, g, b, a] = mesh.color;
    let texture: number | undefined;
    if (mesh.image) {
      const source = (json.images ??= []).push({ bufferView: put(mesh.image.data), mimeType: mesh.image.mimeType }) - 1;
      texture = (json.textures ??= []).push({ source }) - 1;
    }
    const material =
      (json.materials ??= []).push({
        name: `${name}_material`,
        pbrMetallicRoughness: {
          baseColorFactor: texture === undefined ? [r, g, b, a] : [1, 1, 1, a],
          metallicFactor: 0,
          roughnessFactor: 1,
          ...(texture !== undefined && { baseColorTexture: { index: texture } }),
        },
        // Lit or not, a mark keeps its colour: it glows in it.
        emissiveFactor: texture === undefined ? [r, g, b] : [0, 0, 0],
        ...(a < 1 && { alphaMode: 'BLEND' }),
        doubleSided: true,
      }) - 1;
    const meshIndex = (json.meshes ??= []).push({ name, primitives: [{ attributes, indices, material }] }) - 1;
    children.push((json.nodes ??= []).push({ name: `${name}_${children.length}`, mesh: meshIndex }) - 1);
  }
  const node = (json.nodes ??= []).push({ name, ...(children.length && { children }) }) - 1;
  const scenes = (json.scenes ??= []);
  if (scenes.length === 0) scenes.push({ nodes: [] });
  const scene = scenes[json.scene ?? 0] ?? scenes[0]!;
  (scene.nodes ??= []).push(node);
  buffers[0]!.byteLength = at;

  return glbParts(json, [bin, new Uint8Array(start - bin.length), ...added]);
}
