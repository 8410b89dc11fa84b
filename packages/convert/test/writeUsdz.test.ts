import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readGlb, writeUsdz, type SceneData } from '../src/index.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';
import { rawZipEntries, readUsdzBack } from '../../../test/support/usdReader.js';

const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const ALLOWED = /\.(usda|usdc|usd|png|jpe?g)$/;

/** The ARKit package rules, checked on the bytes. */
function expectArkitPackage(bytes: Uint8Array): void {
  const entries = rawZipEntries(bytes);
  expect(entries.length).toBeGreaterThan(0);
  expect(entries[0]!.name).toMatch(/\.(usda|usdc|usd)$/); // root layer first
  for (const e of entries) {
    expect(e.method, `${e.name} stored`).toBe(0);
    expect(e.flags & 0x8, `${e.name} has no data descriptor`).toBe(0);
    expect(e.dataOffset % 64, `${e.name} 64-byte aligned`).toBe(0);
    expect(e.name).toMatch(ALLOWED);
    expect(e.name.startsWith('/') || e.name.split('/').includes('..')).toBe(false);
    expect(e.size).toBe(e.compressedSize);
    expect(crc32(e.data) >>> 0, `${e.name} CRC`).toBe(e.crc);
  }
  // End of central directory lists the same number of entries.
  const eocd = bytes.length - 22;
  const v = new DataView(bytes.buffer, bytes.byteOffset);
  expect(v.getUint32(eocd, true)).toBe(0x06054b50);
  expect(v.getUint16(eocd + 10, true)).toBe(entries.length);
}

const drawnMeshes = (s: SceneData) => s.nodes.reduce((n, node) => n + node.meshes.length, 0);

describe('writeUsdz', () => {
  const realGlbs = corpusFiles('glb').filter((f) => !f.startsWith('Synthetic'));
  it.each(realGlbs)('%s → USDZ that TinyUSDZ reads back identically', async (name) => {
    const scene = await readGlb(corpusBytes('glb', name));
    const bytes = concat(writeUsdz(scene));
    expectArkitPackage(bytes);
    const back = await readUsdzBack(bytes);
    expect(back.nativeUsdzAccepted).toBe(true);
    expect(back.upAxis).toBe('Y');
    expect(back.metersPerUnit).toBe(1);
    expect(back.defaultPrim).toBe('Model');
    // The default prim holds everything, materials included.
    for (const p of back.prims) expect(p.path === '/Model' || p.path.startsWith('/Model/')).toBe(true);
    expect(back.prims.some((p) => p.type === 'PointInstancer')).toBe(false);
    const meshPrims = back.prims.filter((p) => p.type === 'Mesh');
    expect(meshPrims).toHaveLength(drawnMeshes(scene));
    for (const m of meshPrims) {
      expect(m.apiSchemas).toContain('MaterialBindingAPI');
      expect(back.prims.find((p) => p.path === m.materialBinding)?.type).toBe('Material');
    }
    expect(back.prims.filter((p) => p.shaderId === 'UsdPreviewSurface')).toHaveLength(scene.materials.length);
    expect(back.meshes).toHaveLength(drawnMeshes(scene));
    expect(back.meshes.reduce((s, m) => s + m.triangles, 0)).toBe(scene.stats.triangles);
  });

  it('writes the same bytes for the same scene', async () => {
    const a = concat(writeUsdz(await readGlb(corpusBytes('glb', 'DamagedHelmet.glb'))));
    const b = concat(writeUsdz(await readGlb(corpusBytes('glb', 'DamagedHelmet.glb'))));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('a KTX2 GLB reaches the USDZ with every texture its materials use, as PNG, with no texture warning', async () => {
    const scene = await readGlb(corpusBytes('glb', 'AnisotropyBarnLamp-KTX2.glb'));
    expect(scene.warnings.filter((w) => w.code.startsWith('texture'))).toEqual([]);
    const bytes = concat(writeUsdz(scene));
    expectArkitPackage(bytes);
    const images = rawZipEntries(bytes).slice(1);
    // Base colour, normal, and the packed metallic-roughness/occlusion image: all three used ones.
    expect(images).toHaveLength(3);
    for (const image of images) {
      expect(image.name).toMatch(/\.png$/);
      expect(Buffer.from(image.data.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    }
    const back = await readUsdzBack(bytes);
    const layer = back.text;
    // Every image is wired into a material by some UsdUVTexture, and every texture names an image of the package.
    const files = [...layer.matchAll(/asset inputs:file = @([^@]+)@/g)].map((m) => m[1]!);
    expect(new Set(files)).toEqual(new Set(images.map((e) => e.name)));
    expect(back.prims.filter((p) => p.shaderId === 'UsdUVTexture').length).toBeGreaterThanOrEqual(3);
    // USD has no anisotropy input: that is said, not silently lost.
    expect(scene.warnings.find((w) => w.code === 'material_extensions_dropped')?.message).toMatch(/KHR_materials_anisotropy/);
  });

  it('passes textures through byte for byte and wires them as UsdUVTexture', async () => {
    const scene = await readGlb(corpusBytes('glb', 'DamagedHelmet.glb'));
    const bytes = concat(writeUsdz(scene));
    const entries = rawZipEntries(bytes);
    const images = entries.slice(1);
    expect(images).toHaveLength(5);
    images.forEach((e, i) => expect(Buffer.from(e.data).equals(Buffer.from(scene.textures[i]!.data))).toBe(true));
    const back = await readUsdzBack(bytes);
    expect(back.prims.filter((p) => p.shaderId === 'UsdUVTexture')).toHaveLength(5);
    expect(back.prims.filter((p) => p.shaderId === 'UsdPrimvarReader_float2')).toHaveLength(1);
    const layer = back.text;
    // Normal maps in raw colour space with scale and bias; colour in sRGB.
    const shader = (name: string) => /\{([^}]*)\}/.exec(layer.slice(layer.indexOf(`def Shader "${name}"`)))![1]!;
    expect(shader('NormalTexture')).toContain('token inputs:sourceColorSpace = "raw"');
    expect(shader('NormalTexture')).toContain('float4 inputs:bias = (-1, -1, -1, 0)');
    expect(shader('BaseColorTexture')).toContain('token inputs:sourceColorSpace = "sRGB"');
    expect(layer.match(/float3\[\] extent = /g)).toHaveLength(drawnMeshes(scene));
  });
});
