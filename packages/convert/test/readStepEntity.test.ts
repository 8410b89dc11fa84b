import fc from 'fast-check';
import {
  IfcAPI,
  IFCPRODUCT,
  IFCRELAGGREGATES,
  IFCRELCONTAINEDINSPATIALSTRUCTURE,
  IFCRELFILLSELEMENT,
  IFCRELVOIDSELEMENT,
  LogLevel,
} from 'web-ifc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStepSyntax } from '../src/ifc/checkStepSyntax.js';
import { ifcLengthUnit } from '../src/ifc/ifcLengthUnit.js';
import { StepEntityOffsets } from '../src/ifc/StepEntityOffsets.js';
import { decodeStepString } from '../src/ifc/step/decodeStepString.js';
import { readStepAttribute, readStepEntity } from '../src/ifc/step/readStepEntity.js';
import { StepFile } from '../src/ifc/step/StepFile.js';
import { stepEnum, stepNumber, stepReferences, stepText, type StepValue } from '../src/ifc/step/StepValue.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';
import { printStepValue, stepValue } from './support/stepValues.js';

const encode = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const entity = (text: string) => readStepEntity(encode(text), 0);
const attributesOf = (text: string) => entity(text)?.attributes;

describe('readStepEntity: every value form of ISO 10303-21', () => {
  it('tells unset, derived, empty and absent attributes apart', () => {
    expect(attributesOf("#7=IFCWALL('g',$,*,'',());")).toEqual([
      { kind: 'string', value: 'g' },
      { kind: 'unset' },
      { kind: 'derived' },
      { kind: 'string', value: '' },
      { kind: 'list', items: [] },
    ]);
    expect(attributesOf('#7=IFCX();')).toEqual([]);
  });

  it('reads typed values, enumerations, logicals, references, binaries and nested lists', () => {
    expect(attributesOf('#7 = IFCX ( IFCLABEL(\'a\') , .MILLI., .T., #12, "0FF", ((1,2),(#3,$)), IFCLENGTHMEASURE(2.5) );')).toEqual([
      { kind: 'typed', type: 'IFCLABEL', value: { kind: 'string', value: 'a' } },
      { kind: 'enum', value: 'MILLI' },
      { kind: 'enum', value: 'T' },
      { kind: 'reference', id: 12 },
      { kind: 'binary', value: '0FF' },
      {
        kind: 'list',
        items: [
          {
            kind: 'list',
            items: [
              { kind: 'integer', value: 1 },
              { kind: 'integer', value: 2 },
            ],
          },
          { kind: 'list', items: [{ kind: 'reference', id: 3 }, { kind: 'unset' }] },
        ],
      },
      { kind: 'typed', type: 'IFCLENGTHMEASURE', value: { kind: 'real', value: 2.5 } },
    ]);
  });

  it.each([
    ['1.E-5', 1e-5],
    ['1.', 1],
    ['-2.5E+003', -2500],
    ['0.25', 0.25],
    ['.5', 0.5],
    ['1.0e2', 100],
  ])('reads the real %s', (text, value) => {
    expect(attributesOf(`#7=IFCX(${text});`)).toEqual([{ kind: 'real', value }]);
  });

  it('reads integers as integers', () => {
    expect(attributesOf('#7=IFCX(-12,0,+3);')).toEqual([
      { kind: 'integer', value: -12 },
      { kind: 'integer', value: 0 },
      { kind: 'integer', value: 3 },
    ]);
  });

  it.each([
    ["'It''s'", "It's"],
    ["'a\\\\b'", 'a\\b'],
    ["'T\\X2\\00FC\\X0\\r'", 'Tür'],
    ["'\\X2\\D83DDE00\\X0\\'", '😀'],
    ["'\\X4\\0001F600\\X0\\'", '😀'],
    ["'gr\\X\\FC\\X\\DFe'", 'grüße'],
    ["'T\\S\\|r'", 'Tür'],
    ["'\\PB\\\\S\\!'", 'Ą'], // ISO 8859-2's 0xA1
    ["'\\X2\\\\X0\\'", ''],
    ["''", ''],
    ["'a\\Q\\b'", 'a\\Q\\b'], // not an escape: kept as written
    ["'\\S\\''", '§'], // \S\ takes the apostrophe (0x27 + 128) as its character: the next quote closes
    ["'\\S\\\\'", 'Ü'], // … and the backslash (0x5C + 128)
    ["'a\\\\S\\'", 'a\\S\\'], // an escaped backslash, S, then a lone backslash before the closing quote
    ["'\\X2\\00E4\\X0\\'", 'ä'], // the \X0\ that closes a run does not start a \S\
  ])('decodes the string %s', (text, value) => {
    expect(attributesOf(`#7=IFCX(${text});`)).toEqual([{ kind: 'string', value }]);
  });

  it('reads bytes beyond ASCII as UTF-8 when they are, else as Latin-1', () => {
    const utf8 = new Uint8Array([...encode("#7=IFCX('T"), 0xc3, 0xbc, ...encode("r');")]);
    expect(readStepEntity(utf8, 0)?.attributes).toEqual([{ kind: 'string', value: 'Tür' }]);
    const latin1 = new Uint8Array([...encode("#7=IFCX('T"), 0xfc, ...encode("r');")]);
    expect(readStepEntity(latin1, 0)?.attributes).toEqual([{ kind: 'string', value: 'Tür' }]);
  });

  it('reads on past a string whose \\S\\ directive takes a quote as its character', () => {
    expect(attributesOf("#7=IFCX('\\S\\'',#3,'It''s \\S\\'',$);")).toEqual([
      { kind: 'string', value: '§' },
      { kind: 'reference', id: 3 },
      { kind: 'string', value: "It's §" },
      { kind: 'unset' },
    ]);
    expect(readStepAttribute(encode("#7=IFCX('\\S\\'',#3);"), 0, 1)).toEqual({ kind: 'reference', id: 3 });
  });

  it('skips comments between tokens and never reads past its statement', () => {
    expect(attributesOf("#7=/* ( */IFCWALL('x',/* it's */#5,'a');")).toEqual([
      { kind: 'string', value: 'x' },
      { kind: 'reference', id: 5 },
      { kind: 'string', value: 'a' },
    ]);
    expect(attributesOf("#7=IFCWALL('x',$);\n#8=IFCWALL('y',$,'next statement',$);")).toHaveLength(2);
    expect(readStepAttribute(encode("#7=IFCWALL('x',$);\n#8=IFCWALL('y',$,'next',$);"), 0, 2)).toEqual({ kind: 'unset' });
  });

  it('keeps what the standard does not allow as invalid, and reads on', () => {
    const attributes = attributesOf("#7=IFCX(#,'a',?,3);")!;
    expect(attributes.map((a) => a.kind)).toEqual(['invalid', 'string', 'invalid', 'integer']);
    expect(entity("#7=IFCX('never closed")?.attributes[0]?.kind).toBe('invalid');
    expect(entity('7=IFCX();')).toBeUndefined();
    expect(entity('#7=(IFCA()IFCB());')).toEqual({ type: '', attributes: [] });
  });

  it('reads one attribute without the others', () => {
    const rel = encode("#9=IFCRELAGGREGATES('g',#5,'n (x, y)',$,#80,( #81 ,\n#82),$,(),#7);");
    expect(stepReferences(readStepAttribute(rel, 0, 4))).toEqual([80]);
    expect(stepReferences(readStepAttribute(rel, 0, 5))).toEqual([81, 82]);
    expect(readStepAttribute(rel, 0, 7)).toEqual({ kind: 'list', items: [] });
    expect(stepReferences(readStepAttribute(rel, 0, 8))).toEqual([7]);
    expect(readStepAttribute(rel, 0, 9)).toEqual({ kind: 'unset' });
  });

  it('the accessors give nothing for absent values, and unwrap defined types', () => {
    const typed: StepValue = { kind: 'typed', type: 'IFCLABEL', value: { kind: 'string', value: 'Door' } };
    expect(stepText(typed)).toBe('Door');
    for (const absent of [{ kind: 'unset' }, { kind: 'derived' }, { kind: 'integer', value: 3 }, undefined] as const) {
      expect(stepText(absent)).toBeUndefined();
      expect(stepReferences(absent)).toEqual([]);
    }
    expect(stepNumber({ kind: 'typed', type: 'IFCLENGTHMEASURE', value: { kind: 'real', value: 2.1 } })).toBe(2.1);
    expect(stepEnum({ kind: 'enum', value: 'MILLI' })).toBe('MILLI');
    expect(stepNumber({ kind: 'derived' })).toBeUndefined();
  });
});

describe('readStepEntity: properties', () => {
  it("reads back every value written in any of the standard's encodings", () => {
    fc.assert(
      fc.property(fc.array(stepValue, { maxLength: 6 }), fc.func(fc.nat()), (attributes, escapes) => {
        const text = `#42=IFCTHING(${attributes.map((a) => printStepValue(a, escapes)).join(',')});`;
        const read = readStepEntity(encode(text), 0);
        expect(read).toEqual({ type: 'IFCTHING', attributes });
        attributes.forEach((a, i) => expect(readStepAttribute(encode(text), 0, i)).toEqual(a));
      }),
      { numRuns: 400 },
    );
  });

  it('decodes a string printed with any mix of escapes to its text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.func(fc.nat()), (text, escapes) => {
        const printed = printStepValue({ kind: 'string', value: text }, escapes).slice(1, -1);
        expect(decodeStepString(encode(printed))).toBe(text);
      }),
      { numRuns: 400 },
    );
  });

  it('answers any bytes without throwing, and never reads past the end', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(8), (tail, index) => {
        const bytes = new Uint8Array([...encode('#1=IFCX('), ...tail]);
        const e = readStepEntity(bytes, 0);
        expect(e?.type).toBe('IFCX');
        expect(readStepAttribute(bytes, 0, index).kind).toBeTypeOf('string');
        decodeStepString(tail);
      }),
      { numRuns: 1000 },
    );
  });

  it('answers a statement cut or corrupted anywhere without throwing', () => {
    const statement = encode(
      "#9=IFCDOOR('0Tif_$wI1FwAwq$OJt24I8',#5,'T\\X2\\00FC\\X0\\r',*,IFCLABEL('x'),#2386,#2392,$," +
        '2200.,1.E3,.DOOR.,((#1,#2),(3.,4.)),"0FF");',
    );
    fc.assert(
      fc.property(fc.nat(statement.length), fc.nat(statement.length), fc.integer({ min: 0, max: 255 }), (cut, at, byte) => {
        const corrupt = statement.slice(0, Math.max(cut, 1));
        if (at < corrupt.length) corrupt[at] = byte;
        readStepEntity(corrupt, 0);
        for (let i = 0; i < 14; i++) readStepAttribute(corrupt, 0, i);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('StepFile against web-ifc on the corpus', () => {
  let api: IfcAPI;
  beforeAll(async () => {
    api = new IfcAPI();
    await api.Init();
    api.SetLogLevel(LogLevel.LOG_LEVEL_OFF);
  });
  afterAll(() => api.Dispose());

  const openFile = (name: string, bytes = corpusBytes('ifc', name)) => {
    const offsets = new StepEntityOffsets();
    expect(checkStepSyntax(bytes, {}, offsets)).toBeUndefined();
    return { bytes, file: new StepFile(bytes, offsets), model: api.OpenModel(bytes) };
  };
  const idsOf = (model: number, type: number, inherited = false) => {
    const v = api.GetLineIDsWithType(model, type, inherited);
    return Array.from({ length: v.size() }, (_, i) => v.get(i));
  };

  // Names written with every control directive, those taking a quote or a backslash among them.
  const directiveNames = ["A\\S\\'B", "\\S\\'''x", 'x\\S\\\\', "It''s \\S\\'", 'T\\X2\\00FC\\X0\\r\\S\\|', '\\PB\\\\S\\!'];
  const renamed = (name: string) => {
    let k = 0;
    const text = Buffer.from(corpusBytes('ifc', name))
      .toString('latin1')
      .replace(
        /(=\s*IFC(?:WALL|WALLSTANDARDCASE|DOOR|WINDOW|SLAB|SPACE)\('[^']*',#\d+,)'(?:[^']|'')*'/g,
        (_, head: string) => `${head}'${directiveNames[k++ % directiveNames.length]}'`,
      );
    expect(k).toBeGreaterThan(directiveNames.length);
    return new Uint8Array(Buffer.from(text, 'latin1'));
  };

  it.each([
    ...corpusFiles('ifc')
      .filter((f) => f.endsWith('.ifc'))
      .map((f) => [f, false] as const),
    ['AC20-FZK-Haus.ifc', true] as const,
  ])("%s (names with control directives: %s): every product's GlobalId and Name read as web-ifc reads them", (name, directives) => {
    const { file, model } = openFile(name, directives ? renamed(name) : undefined);
    try {
      const ids = [...idsOf(model, IFCPRODUCT, true), ...idsOf(model, IFCRELAGGREGATES)];
      expect(ids.length).toBeGreaterThan(10);
      let compared = 0;
      for (const id of ids) {
        const attributes = file.entity(id)!.attributes;
        // web-ifc drops a derived attribute and shifts those after it: there it is wrong, not us.
        if (attributes.slice(0, 3).some((a) => a.kind === 'derived')) continue;
        const line = api.GetLine(model, id) as { GlobalId?: { value?: string }; Name?: { value?: string } };
        expect({ globalId: stepText(attributes[0]) ?? '', name: stepText(attributes[2]) ?? '' }, `#${id}`).toEqual({
          globalId: line.GlobalId?.value ?? '',
          name: line.Name?.value ?? '',
        });
        compared++;
      }
      expect(compared / ids.length).toBeGreaterThan(0.99);
    } finally {
      api.CloseModel(model);
    }
  });

  // The relationships readIfc follows, with the attributes it reads (0-based position, web-ifc's name).
  const relationships: Array<[number, Array<[number, string]>]> = [
    [
      IFCRELCONTAINEDINSPATIALSTRUCTURE,
      [
        [4, 'RelatedElements'],
        [5, 'RelatingStructure'],
      ],
    ],
    [
      IFCRELAGGREGATES,
      [
        [4, 'RelatingObject'],
        [5, 'RelatedObjects'],
      ],
    ],
    [
      IFCRELFILLSELEMENT,
      [
        [4, 'RelatingOpeningElement'],
        [5, 'RelatedBuildingElement'],
      ],
    ],
    [
      IFCRELVOIDSELEMENT,
      [
        [4, 'RelatingBuildingElement'],
        [5, 'RelatedOpeningElement'],
      ],
    ],
  ];
  it.each(corpusFiles('ifc').filter((f) => f.endsWith('.ifc')))(
    "%s: every relationship's references read as web-ifc reads them",
    (name) => {
      const { file, model } = openFile(name);
      try {
        let compared = 0;
        for (const [type, attributes] of relationships) {
          for (const id of idsOf(model, type)) {
            const line = api.GetLine(model, id) as Record<string, { value: number } | Array<{ value: number }> | null>;
            for (const [position, attribute] of attributes) {
              const value = line[attribute];
              const expected =
                value === null || value === undefined ? [] : Array.isArray(value) ? value.map((r) => r.value) : [value.value];
              expect(stepReferences(file.attribute(id, position)), `#${id}.${attribute}`).toEqual(expected);
              compared++;
            }
          }
        }
        expect(compared).toBeGreaterThan(4);
      } finally {
        api.CloseModel(model);
      }
    },
  );
});

describe('ifcLengthUnit', () => {
  const fileOf = (data: string) => {
    const bytes = encode(`ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\n${data}\nENDSEC;\nEND-ISO-10303-21;\n`);
    const offsets = new StepEntityOffsets();
    expect(checkStepSyntax(bytes, {}, offsets)).toBeUndefined();
    return new StepFile(bytes, offsets);
  };
  const project = "#1=IFCPROJECT('g',$,'p',$,$,$,$,(#9),#2);";

  it.each([
    ['millimetres, with the derived Dimensions IFC2X3 writes as *', '#3=IFCSIUNIT(*,.LENGTHUNIT.,.MILLI.,.METRE.);', 0.001],
    ['metres', '#3=IFCSIUNIT(*,.LENGTHUNIT.,$,.METRE.);', 1],
    [
      'feet, a conversion-based unit',
      "#3=IFCCONVERSIONBASEDUNIT(#5,.LENGTHUNIT.,'FOOT',#6);\n" +
        '#6=IFCMEASUREWITHUNIT(IFCLENGTHMEASURE(0.3048),#7);\n#7=IFCSIUNIT(*,.LENGTHUNIT.,$,.METRE.);',
      0.3048,
    ],
    [
      'inches over millimetres',
      "#3=IFCCONVERSIONBASEDUNIT(#5,.LENGTHUNIT.,'INCH',#6);\n" +
        '#6=IFCMEASUREWITHUNIT(IFCLENGTHMEASURE(25.4),#7);\n#7=IFCSIUNIT(*,.LENGTHUNIT.,.MILLI.,.METRE.);',
      0.0254,
    ],
  ])('%s', (_, unit, metres) => {
    const file = fileOf(`${project}\n#2=IFCUNITASSIGNMENT((#4,#3));\n#4=IFCSIUNIT(*,.AREAUNIT.,.MILLI.,.SQUARE_METRE.);\n${unit}`);
    expect(ifcLengthUnit(file, 1)).toBeCloseTo(metres, 12);
  });

  it('takes metres when the file says nothing usable', () => {
    expect(ifcLengthUnit(fileOf(`${project}\n#2=IFCUNITASSIGNMENT($);`), 1)).toBe(1);
    expect(ifcLengthUnit(fileOf("#1=IFCPROJECT('g',$,'p',$,$,$,$,(#9),*);"), 1)).toBe(1);
    expect(ifcLengthUnit(fileOf(project), undefined)).toBe(1);
  });
});

describe('StepEntityOffsets', () => {
  it('finds entities numbered in order or not', () => {
    const text =
      "ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\n#5=A('a',$,'five');\n#2=A('b',$,'two');\n#9=A('c',$,'nine');\nENDSEC;\nEND-ISO-10303-21;\n";
    const bytes = encode(text);
    const offsets = new StepEntityOffsets();
    expect(checkStepSyntax(bytes, {}, offsets)).toBeUndefined();
    const file = new StepFile(bytes, offsets);
    for (const [id, name] of [
      [5, 'five'],
      [2, 'two'],
      [9, 'nine'],
    ] as const) {
      expect(offsets.offsetOf(id)).toBe(text.indexOf(`#${id}=`));
      expect(stepText(file.attribute(id, 2))).toBe(name);
    }
    expect(offsets.offsetOf(3)).toBe(-1);
    expect(file.entity(3)).toBeUndefined();
    expect(file.attribute(3, 0)).toEqual({ kind: 'unset' });
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
  it.each([
    [1, 2],
    [800_011, 1_600_022],
  ])('reads an id numbered twice from its later statement, as web-ifc does (%i)', (a, b) => {
    const offsets = new StepEntityOffsets();
    offsets.add(a, 10);
    offsets.add(b, 20);
    offsets.add(a, 30);
    expect(offsets.offsetOf(a)).toBe(30);
    expect(offsets.offsetOf(b)).toBe(20);
  });
  it('answers as a map of later statements whatever the ids and however adds and lookups interleave', () => {
    const id = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 40 }));
    const step = fc.oneof(
      fc.record({ add: id, offset: fc.integer({ min: 0, max: 2 ** 34 }) }),
      fc.record({ lookup: fc.oneof(id, fc.constant(-1)) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const offsets = new StepEntityOffsets();
        const model = new Map<number, number>();
        for (const s of steps) {
          if ('add' in s) {
            offsets.add(s.add, s.offset);
            model.set(s.add, s.offset);
          } else expect(offsets.offsetOf(s.lookup)).toBe(model.get(s.lookup) ?? -1);
        }
        for (const [i, at] of model) expect(offsets.offsetOf(i)).toBe(at);
      }),
    );
  });
  it('keeps 4 bytes an id once looked up, letting its file-order record go', () => {
    const offsets = new StepEntityOffsets();
    const count = 200_000;
    for (let i = 1; i <= count; i++) offsets.add(i, i * 60);
    expect(offsets.heldBytes).toBeGreaterThanOrEqual(16 * count);
    expect(offsets.offsetOf(count)).toBe(count * 60);
    expect(offsets.heldBytes).toBe(4 * (count + 1));
  });
  it('indexes a file past 4 GiB in 8 bytes an id', () => {
    const offsets = new StepEntityOffsets();
    offsets.add(1, 10);
    offsets.add(2, 2 ** 33);
    expect(offsets.offsetOf(2)).toBe(2 ** 33);
    expect(offsets.offsetOf(1)).toBe(10);
    expect(offsets.heldBytes).toBe(8 * 3);
  });
});
