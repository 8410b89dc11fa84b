// web-ifc's schema namespaces, deferred: a conversion never defines them (that is the start-up
// saved), anything that uses them gets them whole, and a source not shaped as expected is left alone.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deferSchemaNamespaces } from '../src/ifc/deferSchemaNamespaces.js';
import { loadWebIfc, webIfcSchemasDefined } from '../src/ifc/loadWebIfc.js';
import { readIfc } from '../src/ifc/readIfc.js';
import { corpusPath } from '../../../test/support/corpus.js';

const WEB_IFC_SOURCE = readFileSync(createRequire(import.meta.url).resolve('web-ifc'), 'utf8');

describe('deferSchemaNamespaces', () => {
  it("defers all three of web-ifc's namespaces", () => {
    const { source, deferred } = deferSchemaNamespaces(WEB_IFC_SOURCE);
    expect(deferred).toEqual(['IFC2X3', 'IFC4', 'IFC4X3']);
    expect(source).not.toMatch(/^var IFC4;$/m);
    // Every line where it was: stack traces into web-ifc keep their line numbers.
    expect(source.split('\n').length).toBe(WEB_IFC_SOURCE.split('\n').length);
  });

  it('a conversion defines none of them; using one defines that one, whole', async () => {
    const scene = await readIfc(readFileSync(corpusPath('ifc', 'AC20-FZK-Haus.ifc')));
    expect(scene.stats.triangles).toBeGreaterThan(0);
    expect(webIfcSchemasDefined()).toEqual([]);
    const { IFC4 } = loadWebIfc();
    expect('IfcWallStandardCase' in IFC4).toBe(true);
    expect(Object.keys(IFC4).length).toBeGreaterThan(700);
    expect(webIfcSchemasDefined()).toEqual(['IFC4']);
  });

  it("web-ifc's own properties API still reads lines through them", async () => {
    const { IfcAPI, IFCWALLSTANDARDCASE } = loadWebIfc();
    const api = new IfcAPI();
    await api.Init();
    const model = api.OpenModel(new Uint8Array(readFileSync(corpusPath('ifc', 'IfcOpenHouse_IFC4.ifc'))));
    const wall = api.GetLine(model, api.GetLineIDsWithType(model, IFCWALLSTANDARDCASE).get(0)) as {
      constructor: { name: string };
      Name: { value: string };
    };
    api.CloseModel(model);
    expect(wall.constructor.name).toBe('IfcWallStandardCase');
    expect(wall.Name.value).toBe('South wall');
  });

  it('leaves any other source as it is', () => {
    const unchanged = (text: string) => expect(deferSchemaNamespaces(text)).toEqual({ source: text, deferred: [] });
    // Two of the three namespaces, or one closed differently: not the shape it knows.
    unchanged(WEB_IFC_SOURCE.replace(/^var IFC4X3;$/m, 'var IFC4X3 = {};'));
    unchanged(WEB_IFC_SOURCE.replace(/^\}\)\(IFC4 \|\| \(IFC4 = \{\}\)\);$/m, '})(IFC4);'));
    fc.assert(
      fc.property(fc.string(), (text) => {
        unchanged(text);
      }),
    );
  });
});
