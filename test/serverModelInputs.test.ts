// Models as users send them, through every session endpoint of a real server on loopback: every
// valid USDZ of the corpus (Pixar's clean_* packages), an ARKit-ready one delivered as uploaded, and
// an IFC whose IfcRoot attributes are written `*` as Renga Architecture writes them.
import { createHash } from 'node:crypto';
import { checkUsdzPackage, readUsdz } from '@arsession/convert';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusBytes, corpusFiles } from './support/corpus.js';
import { derivedRootAttributes } from './support/derivedRootAttributes.js';
import { form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';
import { readUsdzBack } from './support/usdReader.js';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';

/** Each session endpoint with text fields that make a valid request (by_scan in mode 2: given corners). */
const ENDPOINTS: Record<string, Record<string, string>> = {
  by_plane: {},
  by_scan: { 'alignment.corners': '[[-0.45, 0, 1], [0.45, 0, 1], [0.45, 2.1, 1], [-0.45, 2.1, 1]]', 'alignment.wall_normal': '[0, 0, 1]' },
  'by_virtual_anchor/rectangle-short-side': {
    'virtual_anchor.anchor_type': 'rectangle_short_side',
    'virtual_anchor.center': '[1, 0, 2]',
    'virtual_anchor.width': '0.6',
    'virtual_anchor.height': '1.2',
    'virtual_anchor.plane_normal': '[0, 1, 0]',
    'virtual_anchor.short_side_direction': '[1, 0, 0]',
  },
  'by_virtual_anchor/segment-directional': {
    'virtual_anchor.anchor_type': 'segment_directional',
    'virtual_anchor.segment_point_1': '[0, 0, 0]',
    'virtual_anchor.segment_point_2': '[2, 0, 1]',
    'virtual_anchor.plane_normal': '[0, 1, 0]',
    'virtual_anchor.placement_source': 'model_surface',
  },
  'by_virtual_anchor/circle-directional': {
    'virtual_anchor.center': '[0, 1, 0]',
    'virtual_anchor.radius': '0.5',
    'virtual_anchor.plane_normal': '[0, 0, 1]',
    'virtual_anchor.direction': '[1, 1, 0]',
  },
  'by_virtual_anchor/corner-directional': {
    'virtual_anchor.corner': '[3, 0, -1]',
    'virtual_anchor.edge_1_direction': '[1, 0, 0]',
    'virtual_anchor.edge_2_direction': '[0, 0, 1]',
    'virtual_anchor.plane_normal': '[0, 1, 0]',
  },
  by_refimage: {
    'reference_image.physical_width': '0.3',
    'reference_image.center': '[0, 1.5, 0]',
    'reference_image.normal': '[0, 0, 1]',
    'reference_image.up': '[0, 1, 0]',
  },
};

interface Asset {
  source_name: string;
  format: string;
  usdz_url: string;
  usdz_bytes: number;
  usdz_sha256: string;
  usdz_delivery: string;
  triangles: number;
  bounds: { min: number[]; max: number[] };
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

/** Posts the models to an endpoint, expects 201, and returns the session's assets with their delivered bytes. */
async function session(path: string, models: Array<[Uint8Array, string]>): Promise<Array<Asset & { delivered: Buffer }>> {
  const fd = form(ENDPOINTS[path]!);
  for (const [bytes, name] of models) fd.append('model_files', new Blob([bytes]), name);
  if (path === 'by_refimage') fd.append('reference_image', new Blob([ONE_PIXEL_PNG]), 'poster.png');
  const r = await postSession(t, path, fd);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const { body } = await getDetail(t, sessionIdOf(r.body.deeplink));
  return Promise.all(
    (body.model_assets as Asset[]).map(async (a) => ({ ...a, delivered: Buffer.from(await (await fetch(a.usdz_url)).arrayBuffer()) })),
  );
}

const cleanUsdz = corpusFiles('usdz').filter((n) => n.startsWith('clean_'));

describe('every valid USDZ of the corpus, on every endpoint', () => {
  it('finds four clean_* packages to send', () => {
    expect(cleanUsdz).toEqual(['clean_clean.usdz', 'clean_clean_arkit.usdz', 'clean_clean_flat.usdz', 'clean_clean_usdc.usdz']);
  });

  it.each(Object.keys(ENDPOINTS))('%s: 201, the triangles and bounds the reader finds, each file a valid ARKit package', async (path) => {
    const assets = await session(
      path,
      cleanUsdz.map((n) => [corpusBytes('usdz', n), n]),
    );
    expect(assets.map((a) => a.source_name)).toEqual(cleanUsdz);
    for (const asset of assets) {
      const scene = await readUsdz(corpusBytes('usdz', asset.source_name));
      expect(asset.format).toBe('usdz');
      expect(asset.triangles).toBeGreaterThan(0);
      expect(asset.triangles).toBe(scene.stats.triangles);
      // Pixar's checker shapes, 2 units wide in a centimetre stage: ±0.01 m once in metres; across
      // their rings the round ones reach sin 72° of that (as OpenUSD draws them), the cube (not in clean_arkit) all of it.
      expect(asset.bounds.min.map((v) => +v.toFixed(6))).toEqual(scene.bounds.min.map((v) => +v.toFixed(6)));
      expect(asset.bounds.max.map((v) => +v.toFixed(6))).toEqual(scene.bounds.max.map((v) => +v.toFixed(6)));
      expect(Math.max(...asset.bounds.max.map(Math.abs), ...asset.bounds.min.map(Math.abs))).toBeCloseTo(0.01, 6);
      expect(createHash('sha256').update(asset.delivered).digest('hex')).toBe(asset.usdz_sha256);
      expect(checkUsdzPackage(new Uint8Array(asset.delivered)).repaired).toEqual([]);
      if (asset.usdz_delivery === 'converted') {
        // Converted packages are checked by an independent reader too (TinyUSDZ cannot compose the as-uploaded one).
        const back = await readUsdzBack(new Uint8Array(asset.delivered));
        expect(back.meshes.reduce((n, m) => n + m.triangles, 0)).toBe(asset.triangles);
      }
    }
  });

  it('the ARKit-ready package is delivered byte for byte as uploaded; the others are converted', async () => {
    const assets = await session(
      'by_plane',
      cleanUsdz.map((n) => [corpusBytes('usdz', n), n]),
    );
    expect(Object.fromEntries(assets.map((a) => [a.source_name, a.usdz_delivery]))).toEqual({
      'clean_clean.usdz': 'converted',
      'clean_clean_arkit.usdz': 'as_uploaded',
      'clean_clean_flat.usdz': 'converted',
      'clean_clean_usdc.usdz': 'converted',
    });
    const arkit = assets.find((a) => a.source_name === 'clean_clean_arkit.usdz')!;
    expect(arkit.delivered.equals(Buffer.from(corpusBytes('usdz', 'clean_clean_arkit.usdz')))).toBe(true);
  });
});

describe('an IFC whose IfcRoot names and descriptions are derived (`*`)', () => {
  it.each(Object.keys(ENDPOINTS))('%s: 201 with the geometry of the file as written with names', async (path) => {
    const plain = corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc');
    const starred = derivedRootAttributes(plain);
    const [withNames, derived] = await session(path, [
      [plain, 'house.ifc'],
      [starred, 'house-renga.ifc'],
    ]);
    expect(derived!.usdz_delivery).toBe('converted');
    expect(derived!.triangles).toBe(withNames!.triangles);
    expect(derived!.bounds).toEqual(withNames!.bounds);
    const back = await readUsdzBack(new Uint8Array(derived!.delivered));
    expect(back.meshes.reduce((n, m) => n + m.triangles, 0)).toBe(derived!.triangles);
  });
});
