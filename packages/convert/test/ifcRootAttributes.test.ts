import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readStepEntity } from '../src/ifc/step/readStepEntity.js';
import { stepText, type StepValue } from '../src/ifc/step/StepValue.js';
import { mergeByMaterial, ModelUnreadableError, readIfc, writeUsdz } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';
import { readUsdzBack } from '../../../test/support/usdReader.js';
import { printStepValue, rootAttributeValue, stepValue } from './support/stepValues.js';

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
const house = latin1(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'));
const WALLS = [40, 221, 268, 281];
const DOOR = 2441;
/** IfcRoot instances of the spatial structure: project, site, building, storey. */
const SPATIAL = [18, 24, 31, 38];

/** IfcOpenHouse with attributes 1–4 of the given entities (OwnerHistory, Name, Description, ObjectType) rewritten. */
function withRootAttributes(rewrites: Map<number, StepValue[]>, escapes: (code: number) => number): Uint8Array {
  let text = house;
  for (const [id, values] of rewrites) {
    const start = text.indexOf(`\n#${id}=`) + 1;
    const end = text.indexOf(';\n', start) + 1;
    const entity = readStepEntity(Buffer.from(text.slice(start, end), 'latin1'), 0)!;
    const attributes = entity.attributes.slice();
    values.forEach((v, i) => (attributes[1 + i] = v));
    const printed = attributes.map((a) => printStepValue(a, escapes)).join(',');
    text = `${text.slice(0, start)}#${id}=${entity.type}(${printed});${text.slice(end)}`;
  }
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

const GLOBAL_IDS = new Map(
  [...WALLS, DOOR, ...SPATIAL].map((id) => {
    const start = house.indexOf(`\n#${id}=`) + 1;
    return [id, stepText(readStepEntity(Buffer.from(house.slice(start, house.indexOf(';', start) + 1), 'latin1'), 0)!.attributes[0])!];
  }),
);

/**
 * What IfcRoot's OwnerHistory, Name, Description and ObjectType may hold: the owner history, a
 * plain string (a defined type is written bare where no SELECT asks which), or nothing.
 */
const schemaValid = (v: StepValue) =>
  v.kind === 'unset' || v.kind === 'derived' || v.kind === 'string' || (v.kind === 'reference' && v.id === 5);

const ownerHistory = fc.constantFrom<StepValue>({ kind: 'unset' }, { kind: 'derived' }, { kind: 'reference', id: 5 });
const rootAttributes = fc.tuple(ownerHistory, rootAttributeValue, rootAttributeValue, rootAttributeValue);
/** Anything ISO 10303-21 can write, in any of the four positions, the owner history's too. */
const anyRootAttributes = fc.tuple(stepValue, stepValue, stepValue, stepValue);

describe('IfcRoot attributes in every form the standard allows', () => {
  it('read, merged and written to USDZ without a crash, names decoded, door sizes in place', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rootAttributes, { minLength: WALLS.length + 1, maxLength: WALLS.length + 1 }),
        fc.func(fc.nat()),
        async (forms, escapes) => {
          const rewrites = new Map([...WALLS, DOOR].map((id, i) => [id, forms[i]!]));
          const scene = await readIfc(withRootAttributes(rewrites, escapes), { fileName: 'forms.ifc' });
          for (const [id, values] of rewrites) {
            const node = scene.nodes.find((n) => n.metadata.globalId === GLOBAL_IDS.get(id));
            // Forms the schema allows leave the element in place; web-ifc may drop an element whose
            // label is a number or a list (not IFC), but nothing may crash.
            if (values.every(schemaValid)) expect(node, `#${id}`).toBeDefined();
            if (node) expect(node.metadata.name).toBe(stepText(values[1]) ?? '');
          }
          // The door's sizes come from attributes 8 and 9, whatever stands before them.
          const [door] = scene.doorOpenings;
          expect(door!.overallHeight).toBeCloseTo(2.2, 9);
          expect(door!.overallWidth).toBeCloseTo(1.0, 9);
          const usdz = new Uint8Array(Buffer.concat(writeUsdz(mergeByMaterial(scene))));
          const back = await readUsdzBack(usdz);
          expect(back.meshes.reduce((n, m) => n + m.triangles, 0)).toBe(scene.stats.triangles);
        },
      ),
      { numRuns: 25 },
    );
  });

  it(
    'any STEP value in any optional IfcRoot position, elements and spatial ' +
      'structure alike: converted, or refused as unreadable, never a crash',
    async () => {
      const ids = [...WALLS, DOOR, ...SPATIAL];
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof({ arbitrary: rootAttributes, weight: 4 }, { arbitrary: anyRootAttributes, weight: 1 }), {
            minLength: ids.length,
            maxLength: ids.length,
          }),
          fc.func(fc.nat()),
          async (forms, escapes) => {
            const rewrites = new Map(ids.map((id, i) => [id, forms[i]!]));
            let scene: Awaited<ReturnType<typeof readIfc>>;
            try {
              scene = await readIfc(withRootAttributes(rewrites, escapes), { fileName: 'anything.ifc' });
            } catch (err) {
              // web-ifc cannot open some legal files (a binary literal such as "38E112FBA" where it reads
              // an owner history): a clear refusal naming the file is the one acceptable end.
              expect(err).toBeInstanceOf(ModelUnreadableError);
              expect((err as Error).message).toMatch(/^anything\.ifc: /);

              return;
            }
            for (const [id, values] of rewrites) {
              const node = scene.nodes.find((n) => n.metadata.globalId === GLOBAL_IDS.get(id));
              if (node) expect(node.metadata.name).toBe(stepText(values[1]) ?? '');
            }
            const usdz = new Uint8Array(Buffer.concat(writeUsdz(mergeByMaterial(scene))));
            const back = await readUsdzBack(usdz);
            expect(back.meshes.reduce((n, m) => n + m.triangles, 0)).toBe(scene.stats.triangles);
          },
        ),
        { numRuns: 40 },
      );
    },
  );

  it('derived attributes where Renga writes them: a name after three of them is still no name', async () => {
    const derived: StepValue = { kind: 'derived' };
    const scene = await readIfc(withRootAttributes(new Map([[40, [{ kind: 'reference', id: 5 }, derived, derived, derived]]]), () => 0));
    const wall = scene.nodes.find((n) => n.metadata.globalId === '3g46_woBL6sugXeY5_WP6n')!;
    expect(wall.metadata.name).toBe('');
    expect(wall.name).toBe('IfcWallStandardCase_40');
    expect(writeUsdz(mergeByMaterial(scene)).length).toBeGreaterThan(0);
  });
});
