import { IfcAPI, IFCPRODUCT, IFCRELAGGREGATES, IFCRELCONTAINEDINSPATIALSTRUCTURE, IFCRELFILLSELEMENT, IFCRELVOIDSELEMENT, LogLevel } from 'web-ifc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStepSyntax } from '../src/ifc/checkStepSyntax.js';
import { readReferences, readRootIdentity } from '../src/ifc/readStepAttributes.js';
import { StepEntityOffsets } from '../src/ifc/StepEntityOffsets.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';

const encode = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

describe('attributes read from the STEP bytes, against web-ifc', () => {
  let api: IfcAPI;
  beforeAll(async () => {
    api = new IfcAPI();
    await api.Init();
    api.SetLogLevel(LogLevel.LOG_LEVEL_OFF);
  });
  afterAll(() => api.Dispose());

  it.each(corpusFiles('ifc').filter((f) => f.endsWith('.ifc')))('%s: every product and aggregate reads as web-ifc reads it, or is left to web-ifc', (name) => {
    const bytes = corpusBytes('ifc', name);
    const offsets = new StepEntityOffsets();
    expect(checkStepSyntax(bytes, {}, offsets)).toBeUndefined();
    const model = api.OpenModel(bytes);
    try {
      const ids: number[] = [];
      for (const type of [IFCPRODUCT, IFCRELAGGREGATES]) {
        const v = api.GetLineIDsWithType(model, type, true);
        for (let i = 0; i < v.size(); i++) ids.push(v.get(i));
      }
      expect(ids.length).toBeGreaterThan(10);
      let read = 0;
      for (const id of ids) {
        const at = offsets.offsetOf(id);
        expect(at, `#${id}`).toBeGreaterThanOrEqual(0);
        const ours = readRootIdentity(bytes, at);
        if (!ours) continue;
        read++;
        const line = api.GetLine(model, id) as { GlobalId?: { value?: string }; Name?: { value?: string } };
        expect(ours, `#${id}`).toEqual({ globalId: line.GlobalId?.value ?? '', name: line.Name?.value ?? '' });
      }
      // Escaped names are left to web-ifc; plain ones, nearly all, are read here.
      expect(read / ids.length).toBeGreaterThan(0.9);
    } finally {
      api.CloseModel(model);
    }
  });

  // The relationships readIfc follows, with the attributes it reads (0-based position, web-ifc's name).
  const relationships: Array<[number, Array<[number, string]>]> = [
    [IFCRELCONTAINEDINSPATIALSTRUCTURE, [[4, 'RelatedElements'], [5, 'RelatingStructure']]],
    [IFCRELAGGREGATES, [[4, 'RelatingObject'], [5, 'RelatedObjects']]],
    [IFCRELFILLSELEMENT, [[4, 'RelatingOpeningElement'], [5, 'RelatedBuildingElement']]],
    [IFCRELVOIDSELEMENT, [[4, 'RelatingBuildingElement'], [5, 'RelatedOpeningElement']]],
  ];
  it.each(corpusFiles('ifc').filter((f) => f.endsWith('.ifc')))('%s: every relationship\'s references read as web-ifc reads them', (name) => {
    const bytes = corpusBytes('ifc', name);
    const offsets = new StepEntityOffsets();
    expect(checkStepSyntax(bytes, {}, offsets)).toBeUndefined();
    const model = api.OpenModel(bytes);
    try {
      let compared = 0;
      for (const [type, attributes] of relationships) {
        const v = api.GetLineIDsWithType(model, type);
        for (let i = 0; i < v.size(); i++) {
          const id = v.get(i);
          const line = api.GetLine(model, id) as Record<string, { value: number } | Array<{ value: number }> | null>;
          for (const [position, attribute] of attributes) {
            const value = line[attribute];
            const expected = value === null || value === undefined ? [] : Array.isArray(value) ? value.map((r) => r.value) : [value.value];
            expect(readReferences(bytes, offsets.offsetOf(id), position), `#${id}.${attribute}`).toEqual(expected);
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(4);
    } finally {
      api.CloseModel(model);
    }
  });
});

describe('readRootIdentity', () => {
  const at0 = (text: string) => readRootIdentity(encode(text), 0);
  it('reads plain strings, doubled quotes and unset values', () => {
    expect(at0("#7= IFCWALL ( '2O2Fr$t4X7Zf8NOew3FK4F' , #5,'It''s (a; wall)',$,$);")).toEqual({ globalId: '2O2Fr$t4X7Zf8NOew3FK4F', name: "It's (a; wall)" });
    expect(at0("#7=IFCWALL('x',$,$,$);")).toEqual({ globalId: 'x', name: '' });
    expect(at0("#7=IFCWALL('x',#5,\n'y',$);")).toEqual({ globalId: 'x', name: 'y' });
  });
  it('leaves escaped and non-ASCII strings to web-ifc', () => {
    expect(at0("#7=IFCWALL('x',$,'T\\X2\\00FC\\X0\\r',$);")).toBeUndefined();
    expect(at0("#7=IFCWALL('x',$,'T\\S\\|r',$);")).toBeUndefined();
    expect(readRootIdentity(new Uint8Array([...encode("#7=IFCWALL('x',$,'T"), 0xc3, 0xbc, ...encode("r',$);")]), 0)).toBeUndefined();
  });
  it('never reads past its own statement, nor through a comment', () => {
    const short = "#7=IFCWALL('x',$);\n#8=IFCWALL('y',$,'next statement',$);";
    expect(readRootIdentity(encode(short), 0)).toBeUndefined();
    expect(at0("#7=IFCWALL('x',/* it's */#5,'a','b');")).toBeUndefined();
    expect(at0("#7=/* ( */IFCWALL('x',$,'a');")).toBeUndefined();
  });
  it('leaves anything but a string or $ to web-ifc', () => {
    expect(at0('#7=IFCWALL(#3,$,$,$);')).toBeUndefined();
    expect(at0("#7=IFCWALL('x',$,IFCLABEL('y'),$);")).toBeUndefined();
    expect(at0("#7=IFCWALL('x',$,'never closed")).toBeUndefined();
  });
});

describe('readReferences', () => {
  const at0 = (text: string, position: number) => readReferences(encode(text), 0, position);
  it('reads one reference, a list, an empty list and an unset attribute', () => {
    const rel = "#9=IFCRELAGGREGATES('g',#5,'n (x, y)',$,#80,( #81 ,\n#82),$,(),#7);";
    expect(at0(rel, 4)).toEqual([80]);
    expect(at0(rel, 5)).toEqual([81, 82]);
    expect(at0(rel, 6)).toEqual([]);
    expect(at0(rel, 7)).toEqual([]);
    expect(at0(rel, 8)).toEqual([7]);
  });
  it('never reads past its own statement, nor through a comment', () => {
    const short = encode("#9=IFCRELAGGREGATES('g',#5);\n#10=IFCRELAGGREGATES('h',#6,$,$,#80,(#81,#82));");
    for (const position of [2, 3, 4, 5]) expect(readReferences(short, 0, position)).toBeUndefined();
    expect(at0("#9=IFCRELAGGREGATES('g',#5,/* it's */$,$,#80,(#81));", 4)).toBeUndefined();
  });
  it('leaves anything else to web-ifc', () => {
    const rel = "#9=IFCX('g',#5,IFCLABEL('a'),(1.,2.),(#3,'x'),#);";
    expect(at0(rel, 0)).toBeUndefined();
    expect(at0(rel, 2)).toBeUndefined();
    expect(at0(rel, 3)).toBeUndefined();
    expect(at0(rel, 4)).toBeUndefined();
    expect(at0(rel, 5)).toBeUndefined();
    expect(at0(rel, 9)).toBeUndefined();
  });
});

describe('StepEntityOffsets', () => {
  it('finds entities numbered in order or not', () => {
    const text = "ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\n#5=A('a',$,'five');\n#2=A('b',$,'two');\n#9=A('c',$,'nine');\nENDSEC;\nEND-ISO-10303-21;\n";
    const bytes = encode(text);
    const offsets = new StepEntityOffsets();
    expect(checkStepSyntax(bytes, {}, offsets)).toBeUndefined();
    for (const [id, name] of [[5, 'five'], [2, 'two'], [9, 'nine']] as const) {
      expect(offsets.offsetOf(id)).toBe(text.indexOf(`#${id}=`));
      expect(readRootIdentity(bytes, offsets.offsetOf(id))?.name).toBe(name);
    }
    expect(offsets.offsetOf(3)).toBe(-1);
  });
  it.each([
    ['dense, in order', (i: number) => i * 3],
    ['dense, out of order', (i: number) => (i * 7919) % 5003],
    ['sparse, in order', (i: number) => i * 800_011],
    ['sparse, out of order', (i: number) => ((i * 7919) % 5003) * 800_011],
  ])('grows past its first capacity and finds every id (%s)', (_, idOf) => {
    const offsets = new StepEntityOffsets();
    for (let i = 1; i <= 5000; i++) offsets.add(idOf(i), i * 100);
    const ids = new Set<number>();
    for (let i = 1; i <= 5000; i++) {
      expect(offsets.offsetOf(idOf(i))).toBe(i * 100);
      ids.add(idOf(i));
    }
    let missing = 1;
    while (ids.has(missing)) missing++;
    expect(offsets.offsetOf(missing)).toBe(-1);
  });
  it.each([[1, 2], [800_011, 1_600_022]])('leaves an id numbered twice to web-ifc (%i)', (a, b) => {
    const offsets = new StepEntityOffsets();
    offsets.add(a, 10);
    offsets.add(b, 20);
    offsets.add(a, 30);
    expect(offsets.offsetOf(a)).toBe(-1);
    expect(offsets.offsetOf(b)).toBe(20);
  });
});
