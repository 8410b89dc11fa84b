import { describe, expect, it } from 'vitest';
import { detectFormat, inspectModel, UnsupportedFormatError } from '../src/index.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';

describe('detectFormat: by content, never by name', () => {
  it.each(corpusFiles('ifc'))('IFC corpus file %s', (name) => {
    expect(detectFormat(corpusBytes('ifc', name))).toBe(name.endsWith('.ifczip') ? 'ifczip' : 'ifc');
  });
  it.each(corpusFiles('glb'))('GLB corpus file %s', (name) => {
    expect(detectFormat(corpusBytes('glb', name))).toBe('glb');
  });
  it.each(corpusFiles('usdz'))('USDZ corpus file %s', (name) => {
    expect(detectFormat(corpusBytes('usdz', name))).toBe('usdz');
  });
  it('recognises IFC after a BOM and blank lines', () => {
    expect(detectFormat(new TextEncoder().encode('\ufeff\r\n  ISO-10303-21;\nHEADER;'))).toBe('ifc');
  });
  it.each([
    ['empty', new Uint8Array()],
    ['text', new TextEncoder().encode('hello, this is not a model')],
    ['PNG', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0, 0])],
    ['glTF magic but too short', new Uint8Array([0x67, 0x6c, 0x54, 0x46])],
  ])('refuses %s', (_, bytes) => {
    expect(detectFormat(bytes)).toBeUndefined();
    expect(() => inspectModel(bytes, { fileName: 'x.glb' })).toThrow(UnsupportedFormatError);
  });
  it('a zip without a USD or IFC entry is not a model', () => {
    // A one-entry stored zip holding "a.txt".
    const name = new TextEncoder().encode('a.txt');
    const header = new Uint8Array(30 + name.length);
    const v = new DataView(header.buffer);
    v.setUint32(0, 0x04034b50, true);
    v.setUint16(26, name.length, true);
    header.set(name, 30);
    expect(detectFormat(header)).toBeUndefined();
  });
});

describe('inspectModel', () => {
  it('reads the IFC schema from the STEP header, matching the manifest', () => {
    expect(inspectModel(corpusBytes('ifc', 'duplex.ifc')).schema).toBe('IFC2X3');
    expect(inspectModel(corpusBytes('ifc', 'AC20-FZK-Haus.ifc')).schema).toBe('IFC4');
    expect(inspectModel(corpusBytes('ifc', 'wall_door_columnt_rgb4x3.ifc')).schema).toBe('IFC4X3_ADD2');
  });
  it('reads the authoring tool positionally (6th FILE_NAME argument), quotes and $ included', () => {
    expect(inspectModel(corpusBytes('ifc', 'wall_door_columnt_rgb4x3.ifc')).originatingSystem).toBe(
      'Autodesk - Revit 26.3.0.37 (ENU) - 26.3.0.37',
    );
    const step = (args: string) => new TextEncoder().encode(`ISO-10303-21;\nHEADER;\nFILE_NAME(${args});\nFILE_SCHEMA(('IFC4'));\nENDSEC;`);
    expect(inspectModel(step("'a','t',('x','y'),('o'),'pre','It''s, (ours)',$")).originatingSystem).toBe("It's, (ours)");
    expect(inspectModel(step("'a','t',(''),(''),'pre',$,$")).originatingSystem).toBeUndefined();
    expect(inspectModel(step("'a);','t',('x'),('o'),'pre','Caf\\X\\E9 \\S\\'s tool);',$")).originatingSystem).toBe('Café §s tool);');
  });
  it('reads the header whatever its records hold, and nothing from a header that is not STEP', () => {
    const header = (records: string) =>
      new TextEncoder().encode(`ISO-10303-21;\nHEADER;\n${records}\nENDSEC;\nDATA;\n#1=IFCX('FILE_SCHEMA((''IFC2X3''))');`);
    expect(
      inspectModel(header("FILE_DESCRIPTION(('FILE_SCHEMA((''X''));'),'2;1');\n/* FILE_SCHEMA(('Y')); */ FILE_SCHEMA (( 'ifc4' ));"))
        .schema,
    ).toBe('IFC4');
    expect(inspectModel(header("FILE_DESCRIPTION(('x'),'2;1');")).schema).toBeUndefined();
    expect(inspectModel(header("FILE_SCHEMA(('IFC4'")).schema).toBeUndefined();
  });
  it('lists USDZ entries in package order', () => {
    expect(inspectModel(corpusBytes('usdz', 'first_file_not_usd.usdz')).entries).toEqual(['b.png', 'test.usda']);
  });
  it('reports GLB extensions and counts', () => {
    const s = inspectModel(corpusBytes('glb', 'Avocado-Draco.glb'));
    expect(s.glb?.extensionsRequired).toContain('KHR_draco_mesh_compression');
    expect(s.glb?.meshNodes).toBe(1);
  });
});
