import { tinyusdzModule } from './tinyusdzModule.js';

/**
 * An independent USD reader for checking what we write: TinyUSDZ (C++, built to WASM), which
 * shares no code with our writer.
 */
export const tinyusdz = tinyusdzModule;

/** A zip entry as its local header describes it. */
export interface RawZipEntry {
  name: string;
  method: number;
  flags: number;
  headerOffset: number;
  dataOffset: number;
  size: number;
  compressedSize: number;
  crc: number;
  data: Uint8Array;
}

/** Walks a zip's local headers byte by byte (what a memory-mapping USD reader sees). */
export function rawZipEntries(bytes: Uint8Array): RawZipEntry[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: RawZipEntry[] = [];
  for (let at = 0; at + 30 <= bytes.length && v.getUint32(at, true) === 0x04034b50; ) {
    const nameLength = v.getUint16(at + 26, true),
      extraLength = v.getUint16(at + 28, true);
    const compressedSize = v.getUint32(at + 18, true);
    const dataOffset = at + 30 + nameLength + extraLength;
    out.push({
      name: new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLength)),
      method: v.getUint16(at + 8, true),
      flags: v.getUint16(at + 6, true),
      headerOffset: at,
      dataOffset,
      size: v.getUint32(at + 22, true),
      compressedSize,
      crc: v.getUint32(at + 14, true),
      data: bytes.subarray(dataOffset, dataOffset + compressedSize),
    });
    at = dataOffset + compressedSize;
  }
  return out;
}

/** What TinyUSDZ read from a package. */
export interface UsdReadBack {
  upAxis: string | undefined;
  metersPerUnit: number | undefined;
  defaultPrim: string | undefined;
  /** Prim paths with their types, from TinyUSDZ's own re-serialisation of the layer. */
  prims: Array<{ path: string; type: string; materialBinding?: string; shaderId?: string; apiSchemas?: string }>;
  /** Triangulated meshes from TinyUSDZ's render scene. */
  meshes: Array<{ path: string; points: number; triangles: number }>;
  /** Whether TinyUSDZ's native USDZ loader (which insists on 64-byte alignment) accepted the package. */
  nativeUsdzAccepted: boolean;
  /** The root layer as TinyUSDZ writes it out in USDA (whatever the layer's own format). */
  text: string;
}

/** Reads a single-layer USDZ (ours) back with TinyUSDZ. Throws with TinyUSDZ's message on failure. */
export async function readUsdzBack(bytes: Uint8Array): Promise<UsdReadBack> {
  const mod = await tinyusdz();
  const entries = rawZipEntries(bytes);
  const native = new mod.TinyUSDZLoaderNative();
  const nativeUsdzAccepted = native.loadFromBinary(bytes, 'package.usdz');
  native.delete();

  const loader = new mod.TinyUSDZLoaderNative();
  try {
    const first = entries[0];
    if (!first) throw new Error('empty package');
    if (!loader.loadAsLayerFromBinary(first.data, first.name)) throw new Error(`TinyUSDZ: ${loader.error()}`);
    for (const e of entries) {
      loader.setAsset(e.name, e.data);
      loader.setAsset(`./${e.name}`, e.data);
    }
    const text = loader.layerToString();
    const header = /^#usda[^\n]*\n\(\n([\s\S]*?)\n\)/.exec(text)?.[1] ?? '';
    const meta = (key: string) => new RegExp(`^\\s*${key} = "?([^"\\n]+)"?`, 'm').exec(header)?.[1];
    if (!loader.layerToRenderScene()) throw new Error(`TinyUSDZ render scene: ${loader.error()}`);
    const meshes = [];
    for (let i = 0; i < loader.numMeshes(); i++) {
      const m = loader.getMesh(i);
      meshes.push({ path: m.absPath, points: m.points.length / 3, triangles: m.faceVertexIndices.length / 3 });
    }
    const mpu = meta('metersPerUnit');
    return {
      upAxis: meta('upAxis'),
      metersPerUnit: mpu === undefined ? undefined : Number(mpu),
      defaultPrim: meta('defaultPrim'),
      prims: primsOf(text),
      meshes,
      nativeUsdzAccepted,
      text,
    };
  } finally {
    loader.delete();
  }
}

function primsOf(text: string): UsdReadBack['prims'] {
  const prims: UsdReadBack['prims'] = [];
  const stack: Array<UsdReadBack['prims'][number]> = [];
  for (const line of text.split('\n')) {
    const indent = /^ */.exec(line)![0].length;
    const def = /^ *(?:def|over|class)\s+(?:(\w+)\s+)?"([^"]+)"/.exec(line);
    if (def) {
      const depth = indent / 4;
      stack.length = depth;
      const prim = { path: `${depth ? stack[depth - 1]!.path : ''}/${def[2]}`, type: def[1] ?? '' };
      stack.push(prim);
      prims.push(prim);
      continue;
    }
    const owner = stack[indent / 4 - 1];
    if (!owner) continue;
    const binding = /rel material:binding = <([^>]+)>/.exec(line);
    if (binding) owner.materialBinding = binding[1]!;
    const shader = /uniform token info:id = "(\w+)"/.exec(line);
    if (shader) owner.shaderId = shader[1]!;
    const api = /prepend apiSchemas = \[([^\]]*)\]/.exec(line);
    if (api) stack[indent / 4 - 2] && (stack[stack.length - 1]!.apiSchemas = api[1]!);
  }
  return prims;
}
