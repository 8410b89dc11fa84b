// web-ifc's schema code (namespaces and tables), deferred: a conversion never defines it (that is
// the start-up saved), anything that uses it gets it whole, and a source not shaped as expected is
// left alone.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deferSchemaCode } from '../src/ifc/deferSchemaCode.js';
import { loadWebIfc, webIfcSchemasDefined } from '../src/ifc/loadWebIfc.js';
import { readIfc } from '../src/ifc/readIfc.js';
import { corpusPath } from '../../../test/support/corpus.js';

const WEB_IFC_SOURCE = readFileSync(createRequire(import.meta.url).resolve('web-ifc'), 'utf8');

describe('deferSchemaCode', () => {
  it("defers all three of web-ifc's namespaces and the six tables of each schema", () => {
    const { source, deferred } = deferSchemaCode(WEB_IFC_SOURCE);
    expect(deferred.slice(0, 3)).toEqual(['IFC2X3', 'IFC4', 'IFC4X3']);
    expect(deferred).toHaveLength(3 + 6 * 3);
    expect(deferred).toContain('FromRawLineData[2]');
    expect(source).not.toMatch(/^var IFC4;$/m);
    expect(source).not.toMatch(/^FromRawLineData\[2\] = \{$/m);
    // Every line where it was: stack traces into web-ifc keep their line numbers.
    expect(source.split('\n').length).toBe(WEB_IFC_SOURCE.split('\n').length);
  });

  it('a conversion defines none of them; using one defines that one, whole', async () => {
    const scene = await readIfc(readFileSync(corpusPath('ifc', 'AC20-FZK-Haus.ifc')));
    expect(scene.stats.triangles).toBeGreaterThan(0);
    // Of the tables, the reader uses one: the subtypes GetLineIDsWithType includes (IFC4's, here).
    expect(webIfcSchemasDefined()).toEqual(['InheritanceDef[2]']);
    const { IFC4 } = loadWebIfc();
    expect('IfcWallStandardCase' in IFC4).toBe(true);
    expect(Object.keys(IFC4).length).toBeGreaterThan(700);
    expect(webIfcSchemasDefined()).toEqual(['InheritanceDef[2]', 'IFC4']);
  });

  it('a table built lazily is the table web-ifc writes: the same keys, each of the same kind', () => {
    // The original source run as CommonJS, beside the deferred one: every table of every schema compared.
    const run = (source: string) => {
      const module = { exports: {} as Record<string, unknown> };
      const filled: string[] = [];
      new Function('exports', 'require', 'module', '__arsessionSchemaFilled', source)(
        module.exports,
        createRequire(import.meta.url),
        module,
        (name: string) => filled.push(name),
      );
      return { exports: module.exports, filled };
    };
    const names = 'FromRawLineData, InheritanceDef, InversePropertyDef, Constructors, ToRawLineData, TypeInitialisers';
    const tablesOf = (source: string) => `${source}\nmodule.exports.__tables = { ${names} };`;
    const original = run(tablesOf(WEB_IFC_SOURCE)).exports.__tables as Record<string, Record<number, Record<string, unknown>>>;
    const deferred = run(tablesOf(deferSchemaCode(WEB_IFC_SOURCE).source));
    expect(deferred.filled).toEqual([]);
    const lazy = deferred.exports.__tables as typeof original;
    for (const [name, bySchema] of Object.entries(original))
      for (const schema of [1, 2, 3]) {
        const want = bySchema[schema]!;
        const got = lazy[name]![schema]!;
        expect(Object.keys(got)).toEqual(Object.keys(want));
        for (const key of Object.keys(want)) expect(typeof got[key]).toBe(typeof want[key]);
        // Read again: the value built the first time, not a new one.
        expect(lazy[name]![schema]).toBe(got);
      }
    expect(deferred.filled).toHaveLength(18);
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
    const unchanged = (text: string) => expect(deferSchemaCode(text)).toEqual({ source: text, deferred: [] });
    // Two of the three namespaces, or one closed differently: not the shape it knows.
    unchanged(WEB_IFC_SOURCE.replace(/^var IFC4X3;$/m, 'var IFC4X3 = {};'));
    unchanged(WEB_IFC_SOURCE.replace(/^\}\)\(IFC4 \|\| \(IFC4 = \{\}\)\);$/m, '})(IFC4);'));
    // A table assigned otherwise than it knows.
    unchanged(WEB_IFC_SOURCE.replace(/^ToRawLineData\[2\] = \{$/m, 'ToRawLineData[2] = { ...{},'));
    fc.assert(
      fc.property(fc.string(), (text) => {
        unchanged(text);
      }),
    );
  });
});
