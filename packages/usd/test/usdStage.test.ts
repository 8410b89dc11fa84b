import { describe, expect, it } from 'vitest';
import { PackageLayers } from '../src/stage/PackageLayers.js';
import { UsdStage } from '../src/stage/UsdStage.js';
import type { SdfValue } from '../src/sdf/SdfLayer.js';

/** A stage composed from text layers (the first is the root). */
function stageOf(layers: Record<string, string>): UsdStage {
  const entries = Object.entries(layers).map(([name, text]) => ({ name, data: new TextEncoder().encode(`#usda 1.0\n${text}`) }));
  return UsdStage.open(new PackageLayers(entries, { label: 'test.usdz' }), entries[0]!.name);
}

const numberOf = (v: SdfValue | undefined) => (v?.kind === 'number' ? v.value : undefined);
const paths = (stage: UsdStage) => [...stage.traverse()].map((p) => p.path);

describe('UsdStage composition', () => {
  it('sublayers: the stronger layer wins, the weaker one adds what it alone has', () => {
    const stage = stageOf({
      'root.usda': '(\n subLayers = [@strong.usda@, @weak.usda@]\n)\nover "A" { double x = 1 }',
      'strong.usda': 'def "A" { double x = 2\n double y = 2 }',
      'weak.usda': 'def "A" { double y = 3\n double z = 3\n def "Child" {} }',
    });
    const a = stage.prim('/A')!;
    expect([numberOf(stage.value(a, 'x')), numberOf(stage.value(a, 'y')), numberOf(stage.value(a, 'z'))]).toEqual([1, 2, 3]);
    expect(paths(stage)).toEqual(['/A', '/A/Child']);
    expect(a.specifier).toBe('def');
  });

  it("references: another layer's prim (its default prim when none is named) under this prim's name, its paths mapped", () => {
    const stage = stageOf({
      'root.usda':
        'def "Chair" (\n references = @chair.usda@\n)\n{ double legs = 3 }\ndef "Other" (\n references = @chair.usda@</Stool>\n) {}',
      'chair.usda':
        '(\n defaultPrim = "Asset"\n)\ndef "Asset" {\n double legs = 4\n def "Seat" { rel material:binding ' +
        '= </Asset/Looks/Oak> }\n def "Looks" { def Material "Oak" {} }\n}\ndef "Stool" { double legs = 1 }',
    });
    expect(paths(stage)).toEqual(['/Chair', '/Chair/Seat', '/Chair/Looks', '/Chair/Looks/Oak', '/Other']);
    expect(numberOf(stage.value(stage.prim('/Chair')!, 'legs'))).toBe(3); // local beats referenced
    expect(numberOf(stage.value(stage.prim('/Other')!, 'legs'))).toBe(1);
    expect(stage.targets(stage.prim('/Chair/Seat')!, 'material:binding')).toEqual(['/Chair/Looks/Oak']);
  });

  it('internal references and payloads compose like references', () => {
    const stage = stageOf({
      'root.usda': 'class "Base" { double size = 5 }\ndef "A" (\n references = </Base>\n) {}\ndef "B" (\n payload = @p.usda@</P>\n) {}',
      'p.usda': 'def "P" { double size = 7 }',
    });
    expect(numberOf(stage.value(stage.prim('/A')!, 'size'))).toBe(5);
    expect(numberOf(stage.value(stage.prim('/B')!, 'size'))).toBe(7);
    expect(stage.prim('/Base')!.specifier).toBe('class');
  });

  it('list ops across layers: prepend, append and delete of references compose weakest first', () => {
    const stage = stageOf({
      'root.usda': '(\n subLayers = [@over.usda@]\n)\nover "A" (\n delete references = @b.usda@\n prepend references = @c.usda@\n) {}',
      'over.usda': 'def "A" (\n references = [@a.usda@, @b.usda@]\n) {}',
      'a.usda': '(\n defaultPrim = "R"\n)\ndef "R" { double from_a = 1\n double who = 1 }',
      'b.usda': '(\n defaultPrim = "R"\n)\ndef "R" { double from_b = 1 }',
      'c.usda': '(\n defaultPrim = "R"\n)\ndef "R" { double who = 3 }',
    });
    const a = stage.prim('/A')!;
    expect(numberOf(stage.value(a, 'from_a'))).toBe(1);
    expect(stage.value(a, 'from_b')).toBeUndefined();
    expect(numberOf(stage.value(a, 'who'))).toBe(3); // prepended: stronger than a.usda
  });

  it("variant sets: the selected variant's prims and opinions, a stronger layer's selection first", () => {
    const asset =
      'def "Thing" (\n variants = { string shape = "ball" }\n prepend variantSets = "shape"\n) {\n double r = 1\n ' +
      'variantSet "shape" = {\n  "ball" { double r = 2\n def Sphere "Ball" {} }\n  "box" { def Cube "Box" {} }\n }\n}';
    const alone = stageOf({ 'root.usda': asset });
    expect(paths(alone)).toEqual(['/Thing', '/Thing/Ball']);
    expect(numberOf(alone.value(alone.prim('/Thing')!, 'r'))).toBe(1); // local beats the variant
    const chosen = stageOf({
      'root.usda': 'def "T" (\n variants = { string shape = "box" }\n references = @asset.usda@</Thing>\n) {}',
      'asset.usda': asset,
    });
    expect(paths(chosen)).toEqual(['/T', '/T/Box']);
    expect(chosen.prim('/T/Box')!.typeName).toBe('Cube');
  });

  it("inherits: a class's opinions, weaker than the prim's own, stronger than its references", () => {
    const stage = stageOf({
      'root.usda':
        'class "_Red" { double colour = 1\n double shade = 1 }\ndef "A" (\n ' +
        'inherits = </_Red>\n references = @r.usda@\n) { double shade = 2 }',
      'r.usda': '(\n defaultPrim = "R"\n)\ndef "R" { double colour = 9\n double ref_only = 9 }',
    });
    const a = stage.prim('/A')!;
    expect([numberOf(stage.value(a, 'colour')), numberOf(stage.value(a, 'shade')), numberOf(stage.value(a, 'ref_only'))]).toEqual([
      1, 2, 9,
    ]);
  });

  it("time samples are read at the start time code, through a reference's layer offset", () => {
    const stage = stageOf({
      'root.usda':
        '(\n startTimeCode = 10\n)\ndef "A" (\n references = @anim.usda@</R> (offset = ' +
        '5)\n) {}\ndef "B" { double v.timeSamples = { 0: 0, 20: 20 }\n double v = 99 }',
      'anim.usda': 'def "R" { double v.timeSamples = { 0: 0, 10: 100 } }',
    });
    expect(numberOf(stage.value(stage.prim('/A')!, 'v'))).toBeCloseTo(50, 9); // stage 10 is layer time 5
    expect(numberOf(stage.value(stage.prim('/B')!, 'v'))).toBeCloseTo(10, 9); // samples beat the default
  });

  it('inactive prims and their subtrees are not on the stage; overs alone are not defined', () => {
    const stage = stageOf({ 'root.usda': 'def "A" (\n active = false\n) { def "B" {} }\nover "C" {}\ndef "D" {}' });
    expect(paths(stage)).toEqual(['/C', '/D']);
    expect(stage.prim('/C')!.specifier).toBe('over');
  });

  it('a reference cycle ends with a problem, not a hang', () => {
    const stage = stageOf({
      'a.usda': 'def "A" (\n references = @b.usda@</B>\n) {}',
      'b.usda': 'def "B" (\n references = @a.usda@</A>\n) {}',
    });
    expect(stage.prim('/A')).toBeDefined();
    expect(stage.problems.join()).toMatch(/cycle/);
  });

  it('instanceable prims compose as their instances show them', () => {
    const stage = stageOf({
      'root.usda':
        'def "I1" (\n instanceable = true\n references = </Proto>\n) {}\ndef "I2" (\n ' +
        'instanceable = true\n references = </Proto>\n) {}\nclass "Proto" { def Mesh "M" {} }',
    });
    expect(paths(stage)).toEqual(['/I1', '/I1/M', '/I2', '/I2/M', '/Proto', '/Proto/M']);
  });

  it('composes the list-op field apiSchemas over every opinion', () => {
    const stage = stageOf({
      'root.usda': '(\n subLayers = [@w.usda@]\n)\nover "A" (\n prepend apiSchemas = ["MaterialBindingAPI"]\n) {}',
      'w.usda': 'def "A" (\n prepend apiSchemas = ["GeomModelAPI"]\n) {}',
    });
    expect(stage.primList(stage.prim('/A')!, 'apiSchemas')).toEqual(['MaterialBindingAPI', 'GeomModelAPI']);
  });
});
