// A model over the AR budget through a real server: its parts in the detail record, each a file
// of the session that downloads as listed, the same from the conversion cache and for a file
// sent twice in one request; a model within the budget has none.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUsdz, unpackParts } from '@arsession/convert';
import { corpusPath } from './support/corpus.js';
import { schemaProblems } from './support/responseContract.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';

const DUPLEX = corpusPath('ifc', 'duplex.ifc');
const BOX = corpusPath('glb', 'Box.glb');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ budgetTriangles: 20_000 });
});
afterAll(() => t?.stop());

/** Posts the models by_plane, expects 201, returns the detail record. */
async function sessionWith(...models: Array<[string, string]>): Promise<Record<string, any>> {
  const r = await postSession(
    t,
    'by_plane',
    form({ [models.length > 1 ? 'model_files' : 'model_file']: models.map(([path, name]) => filePart(path, name)) }),
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const { body } = await getDetail(t, sessionIdOf(r.body.deeplink));
  expect(schemaProblems('SessionDetail', body)).toEqual([]);
  return body;
}

async function download(url: string): Promise<{ bytes: Uint8Array; type: string | null }> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return { bytes: new Uint8Array(await response.arrayBuffer()), type: response.headers.get('content-type') };
}

describe('parts of a model over the AR budget', () => {
  it('are listed bottom storey first, each a USDZ of the session within the budget, and all of them as one zip', async () => {
    const detail = await sessionWith([DUPLEX, 'duplex.ifc']);
    const asset = detail.model_assets[0];
    expect(asset.ar_budget.source.triangles).toBeGreaterThan(20_000);
    expect(asset.triangles_without_element).toBe(0);
    const parts = asset.parts;
    expect(parts.items.map((p: { name: string; storey: { elevation_m: number } }) => [p.name, p.storey.elevation_m])).toEqual([
      ['T/FDN', -1.25],
      ['Level 1', 0],
      ['Level 2', 3.1],
      ['Roof', 6],
    ]);
    let drawn = 0;
    for (const part of parts.items) {
      const { bytes, type } = await download(part.usdz_url);
      expect(type).toBe('model/vnd.usdz+zip');
      expect(bytes.length).toBe(part.usdz_bytes);
      expect(sha256(bytes)).toBe(part.usdz_sha256);
      const scene = await readUsdz(bytes);
      expect(scene.stats.triangles).toBe(part.triangles);
      expect(part.triangles).toBeLessThanOrEqual(20_000);
      drawn += part.ar_budget.source.triangles;
    }
    // Together the parts draw the whole model as read.
    expect(drawn).toBe(asset.ar_budget.source.triangles);
    // The session page lists them, each a link to its file, with the zip of all.
    const page = await (await fetch(detail.page_url)).text();
    for (const part of parts.items) expect(page).toContain(`<a href="${part.usdz_url}">${part.name}</a>`);
    expect(page).toContain(`<a href="${parts.zip_url}">all as one zip</a>`);
    const zip = await download(parts.zip_url);
    expect(zip.type).toBe('application/zip');
    expect([zip.bytes.length, sha256(zip.bytes)]).toEqual([parts.zip_bytes, parts.zip_sha256]);
    expect(unpackParts(zip.bytes).map((f) => sha256(f.data))).toEqual(parts.items.map((p: { usdz_sha256: string }) => p.usdz_sha256));
  });

  it('are the same from the conversion cache, and for the same file sent twice in one request', async () => {
    const hashes = (parts: { zip_sha256: string; items: Array<{ usdz_sha256: string }> }) => [
      parts.zip_sha256,
      ...parts.items.map((p) => p.usdz_sha256),
    ];
    const alone = [(await sessionWith([DUPLEX, 'a.ifc'])).model_assets[0], (await sessionWith([DUPLEX, 'b.ifc'])).model_assets[0]];
    expect(hashes(alone[1].parts)).toEqual(hashes(alone[0].parts));
    // Twice in one request: each copy has half the budget, so its own parts, the same for both and from the cache.
    const twice = [...(await sessionWith([DUPLEX, 'c.ifc'], [DUPLEX, 'd.ifc'])).model_assets];
    twice.push(...(await sessionWith([DUPLEX, 'e.ifc'], [DUPLEX, 'f.ifc'])).model_assets);
    expect(twice[0].ar_budget.limits.triangles).toBe(10_000);
    for (const asset of twice) {
      expect(hashes(asset.parts)).toEqual(hashes(twice[0].parts));
      for (const part of asset.parts.items) expect(sha256((await download(part.usdz_url)).bytes)).toBe(part.usdz_sha256);
    }
    expect(hashes(twice[0].parts)).not.toEqual(hashes(alone[0].parts));
    // Each session serves its own files: the second asset's parts are its own URLs.
    expect(twice[1].parts.items[0].usdz_url).not.toBe(twice[0].parts.items[0].usdz_url);
  });

  it('name the part to load first: where the placement ties the model to the room', async () => {
    // by_plane's footprint anchor is the bottom of the model: the foundation's part.
    const plane = (await sessionWith([DUPLEX, 'duplex.ifc'])).model_assets[0].parts;
    expect(plane.items[plane.at_placement].name).toBe('T/FDN');
    // A virtual anchor drawn on the upper floor: that storey's part.
    const r = await postSession(
      t,
      'by_virtual_anchor/circle-directional',
      form({
        model_file: filePart(DUPLEX),
        'virtual_anchor.center': '[4.5, 4.5, 9]',
        'virtual_anchor.radius': '0.5',
        'virtual_anchor.plane_normal': '[0, 1, 0]',
        'virtual_anchor.direction': '[0, 0, -1]',
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const upper = (await getDetail(t, sessionIdOf(r.body.deeplink))).body.model_assets[0].parts;
    expect(upper.items[upper.at_placement].name).toBe('Level 2');
  });

  it('a federation shares one budget: each model its share, one level per storey across the models', async () => {
    const AC20 = corpusPath('ifc', 'AC20-FZK-Haus.ifc');
    const detail = await sessionWith([DUPLEX, 'duplex.ifc'], [AC20, 'ac20.ifc']);
    const [duplex, house] = detail.model_assets;
    // What a device loads together is within the budget: the shares add up to it, each model owed
    // a box's triangles (12) for each of its elements first.
    const limits = [duplex.ar_budget.limits.triangles, house.ar_budget.limits.triangles];
    expect(limits[0] + limits[1]).toBeLessThanOrEqual(20_000);
    expect(limits[0]).toBeGreaterThanOrEqual(12 * duplex.elements);
    expect(limits[1]).toBeGreaterThanOrEqual(12 * house.elements);
    expect(duplex.triangles + house.triangles).toBeLessThanOrEqual(20_000);
    expect(duplex.draw_calls + house.draw_calls).toBeLessThanOrEqual(200);
    for (const asset of [duplex, house])
      for (const part of asset.parts.items) expect(part.triangles).toBeLessThanOrEqual(asset.ar_budget.limits.triangles);
    // Duplex's Level 1 and AC20's Erdgeschoss are both at 0 m: one level, loaded together.
    const levelOf = (asset: { parts: { items: Array<{ name: string; session_level: number }> } }, name: string) =>
      asset.parts.items.find((p) => p.name === name || p.name.startsWith(`${name} · `))!.session_level;
    expect(levelOf(duplex, 'Level 1')).toBe(levelOf(house, 'Erdgeschoss'));
    expect(levelOf(duplex, 'T/FDN')).toBe(0);
    expect(levelOf(house, 'Erdgeschoss')).toBe(1);
  });

  it('a model within the budget has none: parts is null and usdz_url is the whole', async () => {
    const detail = await sessionWith([BOX, 'box.glb']);
    expect(detail.model_assets[0].parts).toBeNull();
  });
});
