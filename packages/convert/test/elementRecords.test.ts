import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readIfc, type ElementRecords } from '../src/index.js';
import { runConversion } from '../src/worker/runConversion.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'arsession-elements-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('element records', () => {
  it('AC20: a door and a wall as the file states them: class, name, type, storey, materials, properties, quantities', async () => {
    const scene = await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'), { elementRecords: true });
    const byName = new Map(scene.elementRecords!.map((r) => [r.name, r]));
    const door = byName.get('Innentuer-1')!;
    expect(door).toMatchObject({ global_id: '1Oms875aH3Wg$9l65H2ZGw', ifc_class: 'IfcDoor', storey: 'Erdgeschoss', materials: ['Holz'] });
    expect(door.property_sets.Pset_DoorCommon).toEqual({ ThermalTransmittance: 2 });
    expect(byName.get('Innentuer-2')!.property_sets.Pset_DoorCommon).toEqual({ ThermalTransmittance: 2, FireExit: false });
    const wall = byName.get('Wand-Int-ERDG-2')!;
    expect(wall.type).toMatchObject({ ifc_class: 'IfcWallType', name: 'Leichtbeton 102890359 240' });
    expect(wall.materials.length).toBeGreaterThan(0);
    expect(Object.values(wall.quantities).some((q) => q.Length === 5.57)).toBe(true);
    // One record per drawn element: every node that stands for an element has one.
    const drawn = new Set(scene.nodes.filter((n) => n.meshes.length > 0).map((n) => n.metadata.globalId));
    expect(new Set(scene.elementRecords!.map((r) => r.global_id))).toEqual(drawn);
  });

  it('every corpus IFC: a record for each GlobalId with geometry, with the class and name the file states', async () => {
    for (const name of corpusFiles('ifc')) {
      const path = join(dir, `${name}.elements.json.gz`);
      const result = await runConversion({ bytes: corpusBytes('ifc', name), fileName: name, outputs: [], elementsPath: path, budget: {} });
      const file = readFileSync(path);
      expect(result.elements, name).toMatchObject({ bytes: file.length });
      const records = JSON.parse(gunzipSync(file).toString('utf8')) as ElementRecords;
      expect(records.schema, name).toMatch(/^IFC/);
      const scene = await readIfc(corpusBytes('ifc', name));
      for (const node of scene.nodes.filter((n) => n.meshes.length > 0)) {
        const record = records.elements[node.metadata.globalId!];
        expect(record, `${name} ${node.metadata.globalId}`).toBeDefined();
        expect([record!.ifc_class, record!.name]).toEqual([node.metadata.ifcClass, node.metadata.name]);
      }
      expect(result.elements!.count).toBe(Object.keys(records.elements).length);
    }
  });

  it('the same model gives the same file; a GLB has none', async () => {
    const a = await runConversion({ bytes: corpusBytes('ifc', 'duplex.ifc'), outputs: [], elementsPath: join(dir, 'a.gz') });
    const b = await runConversion({ bytes: corpusBytes('ifc', 'duplex.ifc'), outputs: [], elementsPath: join(dir, 'b.gz') });
    expect(a.elements!.sha256).toBe(b.elements!.sha256);
    const glb = await runConversion({ bytes: corpusBytes('glb', 'Box.glb'), outputs: [], elementsPath: join(dir, 'box.gz') });
    expect(glb.elements).toBeUndefined();
  });
});
