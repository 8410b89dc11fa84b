import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { Document, NodeIO } from '@gltf-transform/core';
import { PackageLayers, UsdStage, checkUsdzPackage } from '@arsession/usd';
import { readIfc, type ElementRecords } from '../src/index.js';
import { zipArchive } from '../../../test/support/zipArchive.js';
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

  it('names are kept whatever the file calls them: a property set and a property named __proto__', async () => {
    const PROTO = '__proto__';
    const text = new TextDecoder('latin1')
      .decode(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'))
      // The first door's Pset_DoorCommon holds this property; the second door's set is renamed.
      .replace("('ThermalTransmittance',$,IFCTHERMALTRANSMITTANCEMEASURE(2.)", `('${PROTO}',$,IFCLABEL('x')`)
      .replace("#12,'Pset_DoorCommon',$,(#19207,#19208)", `#12,'${PROTO}',$,(#19207,#19208)`);
    const path = join(dir, 'proto.elements.json.gz');
    await runConversion({ bytes: Uint8Array.from(text, (c) => c.charCodeAt(0)), outputs: [], elementsPath: path });
    const { elements } = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as ElementRecords;
    const sets = Object.values(elements).flatMap((r) => Object.entries(r.property_sets));
    const own = (set: object) => Object.getOwnPropertyDescriptor(set, PROTO)?.value as unknown;
    expect(sets.map(([, set]) => own(set))).toContain('x');
    expect(sets.filter(([name]) => name === PROTO).map(([, set]) => set)).toContainEqual({ ThermalTransmittance: 2, FireExit: false });
  });

  it('the same model gives the same file', async () => {
    const a = await runConversion({ bytes: corpusBytes('ifc', 'duplex.ifc'), outputs: [], elementsPath: join(dir, 'a.gz') });
    const b = await runConversion({ bytes: corpusBytes('ifc', 'duplex.ifc'), outputs: [], elementsPath: join(dir, 'b.gz') });
    expect(a.elements!.sha256).toBe(b.elements!.sha256);
  });
});

/**
 * A GLB of three triangles' nodes: `door` with extras (nested, a list) on it and its mesh, `panel`
 * unnamed with a named mesh and no extras, and one that names neither.
 */
async function glbWithExtras(): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const triangle = () =>
    doc
      .createPrimitive()
      .setAttribute(
        'POSITION',
        doc
          .createAccessor()
          .setType('VEC3')
          .setBuffer(buffer)
          .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])),
      )
      .setMaterial(doc.createMaterial('Oak'));
  const door = doc
    .createNode('Door 7')
    .setMesh(doc.createMesh().addPrimitive(triangle()).setExtras({ lod: 2 }))
    .setExtras({ fireRating: 'EI30', size: { w: 0.9, h: 2.1 }, tags: ['exit', 'north'] });
  const panel = doc.createNode('').setTranslation([3, 0, 0]).setMesh(doc.createMesh('Panel').addPrimitive(triangle()));
  const bare = doc.createNode('').setTranslation([6, 0, 0]).setMesh(doc.createMesh().addPrimitive(triangle()));
  doc.createScene().addChild(door).addChild(panel).addChild(bare);
  return new NodeIO().writeBinary(doc);
}

describe('element records of a GLB and a USDZ: what the file carries', () => {
  it('a GLB: each drawing node by its pointer, with its name, materials and extras', async () => {
    const path = join(dir, 'glb.elements.json.gz');
    const result = await runConversion({ bytes: await glbWithExtras(), outputs: ['usdz'], elementsPath: path });
    const records = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as ElementRecords;
    expect(records.schema).toBe('glTF 2.0');
    expect(Object.keys(records.elements).sort()).toEqual(['/nodes/0', '/nodes/1', '/nodes/2']);
    expect(records.elements['/nodes/0']).toEqual({
      id: '/nodes/0',
      global_id: null,
      ifc_class: null,
      name: 'Door 7',
      type: null,
      storey: null,
      materials: ['Oak'],
      property_sets: { extras: { fireRating: 'EI30', 'size.w': 0.9, 'size.h': 2.1, tags: ['exit', 'north'] }, 'mesh extras': { lod: 2 } },
      quantities: {},
    });
    expect(records.elements['/nodes/1']!.property_sets).toEqual({});
    // An unnamed node is named by its mesh, as exporters that name only meshes mean it; by nothing made up.
    expect(records.elements['/nodes/1']!.name).toBe('Panel');
    expect(records.elements['/nodes/2']!.name).toBe('');
    expect(result.elements!.count).toBe(3);
    // What the delivered USDZ names each face by is a record's id.
    const pkg = checkUsdzPackage(result.usdz!);
    const stage = UsdStage.open(new PackageLayers(pkg.entries, { label: 'back' }), pkg.entries[0]!.name);
    const named = [...stage.traverse()]
      .filter((prim) => prim.typeName === 'Mesh')
      .flatMap((prim) => {
        const table = stage.value(prim, 'primvars:element');
        return table?.kind === 'stringArray' ? table.value : [];
      });
    expect(named.sort()).toEqual(Object.keys(records.elements).sort());
  });

  it('a USDZ: each drawing prim by its path, with its name, materials, customData and assetInfo', async () => {
    const layer = [
      '#usda 1.0',
      '(\n    defaultPrim = "Root"\n    metersPerUnit = 1\n    upAxis = "Y"\n)',
      'def Xform "Root" {',
      '  def Mesh "Chair" (',
      '    customData = {',
      '      string maker = "Vitra"',
      '      dictionary size = { double seat = 0.45 }',
      `      int[] big = [${Array.from({ length: 300 }, (_, i) => i).join(', ')}]`,
      '    }',
      '    assetInfo = { string name = "chair" }',
      '  ) {',
      '    int[] faceVertexCounts = [3]',
      '    int[] faceVertexIndices = [0, 1, 2]',
      '    point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]',
      '  }',
      '}',
      '',
    ].join('\n');
    const usdz = zipArchive([{ name: 'chair.usda', data: new TextEncoder().encode(layer) }]);
    const path = join(dir, 'usdz.elements.json.gz');
    await runConversion({ bytes: usdz, outputs: [], elementsPath: path });
    const records = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as ElementRecords;
    expect(records.schema).toBe('USD');
    expect(records.elements['/Root/Chair']).toMatchObject({
      id: '/Root/Chair',
      global_id: null,
      name: 'Chair',
      // A list of 300 is data, not a property: left out.
      property_sets: { customData: { maker: 'Vitra', 'size.seat': 0.45 }, assetInfo: { name: 'chair' } },
    });
  });
});
