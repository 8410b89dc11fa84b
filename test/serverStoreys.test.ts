// Storeys through a real server: each asset lists its USDZ's storeys with the Xform an app hides
// or shows, numbered across the session's models as the parts are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';
import { readUsdzBack } from './support/usdReader.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.stop());

interface StoreyOnWire {
  name: string;
  ifc_class: string | null;
  elevation_m: number | null;
  prim_path: string;
  session_level: number | null;
}

describe('storeys in the detail record', () => {
  it('bottom up, each the Xform of the delivered USDZ that holds its prims, with its label; one level across models', async () => {
    const r = await postSession(
      t,
      'by_plane',
      form({
        model_files: [
          filePart(corpusPath('glb', 'Box.glb'), 'box.glb'),
          filePart(corpusPath('ifc', 'AC20-FZK-Haus.ifc'), 'house.ifc'),
          filePart(corpusPath('ifc', 'duplex.ifc'), 'duplex.ifc'),
        ],
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const detail = (await getDetail(t, sessionIdOf(r.body.deeplink))).body;
    const [box, house, duplex] = detail.model_assets as Array<{ storeys: StoreyOnWire[]; usdz_url: string }>;
    expect(box!.storeys).toEqual([]);
    // AC20: Erdgeschoss at 0, Dachgeschoss at 2.7 m; its terrain is the site's own, with no elevation.
    expect(house!.storeys.map((s) => [s.name, s.ifc_class, s.elevation_m])).toEqual([
      ['Erdgeschoss', 'IfcBuildingStorey', 0],
      ['Dachgeschoss', 'IfcBuildingStorey', 2.7],
      ['Gelaende', 'IfcSite', null],
    ]);
    const elevations = duplex!.storeys.map((s) => s.elevation_m!);
    expect(elevations).toEqual([...elevations].sort((a, b) => a - b));
    expect(duplex!.storeys.map((s) => s.name)).toEqual(expect.arrayContaining(['Level 1', 'Level 2', 'Roof']));
    // Storeys at one elevation in both models are one level; the lowest is level 0.
    const level = (storeys: StoreyOnWire[], name: string) => storeys.find((s) => s.name === name)!.session_level;
    expect(level(house!.storeys, 'Erdgeschoss')).toBe(level(duplex!.storeys, 'Level 1'));
    expect(Math.min(...[...house!.storeys, ...duplex!.storeys].map((s) => s.session_level ?? Number.POSITIVE_INFINITY))).toBe(0);

    for (const asset of [house!, duplex!]) {
      const usdz = new Uint8Array(await (await fetch(asset.usdz_url)).arrayBuffer());
      const back = await readUsdzBack(usdz);
      const xforms = new Set(back.prims.filter((p) => p.type === 'Xform').map((p) => p.path));
      const meshes = back.prims.filter((p) => p.type === 'Mesh').map((p) => p.path);
      for (const storey of asset.storeys) {
        expect(xforms, storey.prim_path).toContain(storey.prim_path);
        const def = back.text.indexOf(`def Xform "${storey.prim_path.split('/').pop()}"`);
        expect(back.text.slice(def, def + 1000)).toContain(`string accessibility:default:label = ${JSON.stringify(storey.name)}`);
      }
      // Every mesh (instanced ones included) lies under one of the storeys.
      for (const mesh of meshes.filter((m) => !m.includes('/Prototypes/')))
        expect(
          asset.storeys.some((s) => mesh.startsWith(`${s.prim_path}/`)),
          mesh,
        ).toBe(true);
    }
  });
});
