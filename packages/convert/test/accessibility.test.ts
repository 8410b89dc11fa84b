import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { accessibilityOf, classInWords, describeLayer, mergeByMaterial, readIfc } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';

describe('accessibilityOf', () => {
  it('says an element by its name, its class in words and its storey', () => {
    expect(accessibilityOf({ ifcClass: 'IfcWallStandardCase', globalId: 'x', name: 'Basic Wall', storey: 'Level 1' })).toEqual({
      label: 'Basic Wall',
      description: 'Wall standard case on Level 1',
    });
    // Nameless: its class stands for its name; an unnamed storey is said to be one.
    expect(accessibilityOf({ ifcClass: 'IFCSLAB', name: '', storey: '' })).toEqual({
      label: 'Slab',
      description: 'Slab on a storey without a name',
    });
  });

  it('says a container by its name, its class and its elevation; a merged storey group likewise', () => {
    expect(accessibilityOf({ ifcClass: 'IfcBuildingStorey', name: 'Erdgeschoss', elevation: '0' })).toEqual({
      label: 'Erdgeschoss',
      description: 'Storey at elevation 0 m',
    });
    expect(accessibilityOf({ ifcClass: 'IfcSite', name: 'Gelaende' })).toEqual({ label: 'Gelaende', description: 'Site' });
    expect(accessibilityOf({ storey: 'Level 2', storeyClass: 'IfcBuildingStorey', elevation: '3.2' })).toEqual({
      label: 'Level 2',
      description: 'Storey at elevation 3.2 m',
    });
    expect(accessibilityOf({ storey: 'Campus', storeyClass: 'IfcBuilding' })).toEqual({ label: 'Campus', description: 'Building' });
  });

  it('says nothing of a node without identity (a GLB node, a spatial cell)', () => {
    expect(accessibilityOf({})).toBeUndefined();
    expect(accessibilityOf({ cell: '3' })).toBeUndefined();
  });

  it('classInWords: never the Ifc prefix, one capital, as many words as the class has capitals', () => {
    const word = fc.stringMatching(/^[A-Z][a-z]{1,8}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), (words) => {
        const said = classInWords(`Ifc${words.join('')}`);
        expect(said.split(' ')).toHaveLength(words.length);
        expect(said.slice(1)).toBe(said.slice(1).toLowerCase());
        expect(said.toLowerCase()).toBe(words.join(' ').toLowerCase());
      }),
    );
  });
});

describe('the layer says what each storey and element is', () => {
  it('AC20, merged: each storey Xform applies AccessibilityAPI with its label, description and priority', async () => {
    const layer = describeLayer(mergeByMaterial(await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc')), { minDrawCalls: 0 }));
    const storeys = layer.root.children.filter((c) => c.typeName === 'Xform');
    expect(storeys.map((s) => s.name).sort()).toEqual(['Dachgeschoss', 'Erdgeschoss', 'Gelaende']);
    for (const storey of storeys) {
      expect(storey.apiSchemas).toEqual(['AccessibilityAPI:default']);
      const said = Object.fromEntries(storey.properties.map((p) => [p.name, p.kind === 'attribute' ? p.value?.value : undefined]));
      expect(said['accessibility:default:label']).toBe(storey.name);
      expect(said['accessibility:default:priority']).toBe('standard');
      expect(said['accessibility:default:description']).toMatch(/^(Storey at elevation \d|Site$)/);
      // Every mesh lies under a storey.
      expect(storey.children.every((c) => c.typeName === 'Mesh')).toBe(true);
    }
  });
});
