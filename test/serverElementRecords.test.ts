// Element records through a real server: every element with geometry answers "what is this?" by
// its GlobalId, as the file states it, and all of them come as one content-addressed file.
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIfc, type ElementRecords } from '@arsession/convert';
import { corpusBytes, corpusPath } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';

const AC20 = corpusPath('ifc', 'AC20-FZK-Haus.ifc');
const BOX = corpusPath('glb', 'Box.glb');

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.stop());

async function sessionWith(...models: Array<[string, string]>): Promise<Record<string, any>> {
  const r = await postSession(
    t,
    'by_plane',
    form({ [models.length > 1 ? 'model_files' : 'model_file']: models.map(([p, n]) => filePart(p, n)) }),
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return (await getDetail(t, sessionIdOf(r.body.deeplink))).body;
}

const elementUrl = (detail: Record<string, any>, globalId: string) =>
  `${t.url}/api/vision/v1/session/${detail.session_id}/elements/${encodeURIComponent(globalId)}`;

describe('element records', () => {
  it('AC20: every GlobalId with geometry answers with the class and name the file states', async () => {
    const detail = await sessionWith([BOX, 'box.glb'], [AC20, 'house.ifc']);
    const [, house] = detail.model_assets;
    const file = new Uint8Array(await (await fetch(house.element_records.url)).arrayBuffer());
    expect([file.length, createHash('sha256').update(file).digest('hex')]).toEqual([
      house.element_records.bytes,
      house.element_records.sha256,
    ]);
    const records = JSON.parse(gunzipSync(file).toString('utf8')) as ElementRecords;
    expect(Object.keys(records.elements)).toHaveLength(house.element_records.count);
    const scene = await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'));
    for (const node of scene.nodes.filter((n) => n.meshes.length > 0)) {
      const res = await fetch(elementUrl(detail, node.metadata.globalId!));
      expect(res.status, node.metadata.globalId).toBe(200);
      const record = (await res.json()) as { order: number; ifc_class: string; name: string };
      expect([record.order, record.ifc_class, record.name]).toEqual([1, node.metadata.ifcClass, node.metadata.name]);
    }
    const door = (await (await fetch(elementUrl(detail, '1Oms875aH3Wg$9l65H2ZGw'))).json()) as Record<string, any>;
    expect(door).toMatchObject({ ifc_class: 'IfcDoor', name: 'Innentuer-1', storey: 'Erdgeschoss', materials: ['Holz'] });
    expect(door.property_sets.Pset_DoorCommon).toEqual({ ThermalTransmittance: 2 });
  });

  it("a GLB's elements answer by node pointer, in the model ?order names", async () => {
    const detail = await sessionWith([BOX, 'a.glb'], [BOX, 'b.glb']);
    for (const asset of detail.model_assets) expect(asset.element_records.count).toBe(1);
    // The same file twice: /nodes/1 (Box.glb's mesh node) is in both, the first unless order says.
    const first = await fetch(elementUrl(detail, '/nodes/1'));
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ order: 0, id: '/nodes/1', global_id: null, ifc_class: null });
    const second = (await (await fetch(`${elementUrl(detail, '/nodes/1')}?order=1`)).json()) as { order: number };
    expect(second.order).toBe(1);
    for (const order of ['2', '-1', 'x', '1e0']) {
      const res = await fetch(`${elementUrl(detail, '/nodes/1')}?order=${order}`);
      expect(res.status, order).toBe(400);
      expect(((await res.json()) as { code: string; errors: Array<{ field: string }> }).errors[0]!.field).toBe('order');
    }
    const missing = await fetch(`${elementUrl(detail, '/nodes/0')}?order=1`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toContain('model 1 of this session');
  });

  it('an id no element has is 404 naming it; a hostile id is refused the same, without a read', async () => {
    const detail = await sessionWith([AC20, 'house.ifc']);
    for (const id of ['0000000000000000000000', 'x'.repeat(5000), '__proto__', 'constructor']) {
      const res = await fetch(elementUrl(detail, id));
      expect(res.status, id.slice(0, 30)).toBe(404);
      const problem = (await res.json()) as { code: string; detail: string };
      expect(problem.code).toBe('element_not_found');
      expect(problem.detail).toContain(id.length <= 1024 ? JSON.stringify(id) : `${JSON.stringify(id.slice(0, 1024))}…`);
    }
  });
});
