import { validateOpening } from '@arsession/geometry';
import { describe, expect, it } from 'vitest';
import { readIfc, sceneBounds, type IfcSceneData } from '../src/index.js';
import { corpusBytes, manifestIfcFacts } from '../../../test/support/corpus.js';
import { farAwayIfcOpenHouse } from '../../../test/support/movedIfc.js';

const facts = manifestIfcFacts();
const cache = new Map<string, Promise<IfcSceneData>>();
const read = (name: string) => {
  if (!cache.has(name)) cache.set(name, readIfc(corpusBytes('ifc', name), { fileName: name }));
  return cache.get(name)!;
};

describe('readIfc on the corpus', () => {
  it('the manifest lists the nine plain IFC files', () => expect(facts.size).toBe(9));

  it.each([...facts.keys()])('%s: schema, triangles and doors match the manifest', async (name) => {
    const f = facts.get(name)!;
    const scene = await read(name);
    expect(scene.source.schema).toBe(f.schema);
    expect(scene.stats.triangles).toBe(f.triangles);
    expect(scene.doorOpenings).toHaveLength(f.doors);
    expect(scene.offset).toEqual([0, 0, 0]); // nothing in the corpus is georeferenced far away
    // The bounds grown while baking are those of the delivered points.
    expect(scene.bounds).toEqual(sceneBounds(scene));
    // Every product node carries its identity.
    for (const node of scene.nodes.filter((n) => n.meshes.length > 0)) {
      expect(node.metadata.ifcClass).toMatch(/^Ifc/);
      expect(node.metadata.globalId).toMatch(/^[0-9A-Za-z_$]{22}$/);
    }
  });

  it('skips the door index when asked (plain conversion does not need it)', async () => {
    const scene = await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'), { doorIndex: false });
    expect(scene.doorOpenings).toEqual([]);
    expect(scene.stats.triangles).toBe(facts.get('AC20-FZK-Haus.ifc')!.triangles);
  });

  it('reads the zipped IFC', async () => {
    const scene = await readIfc(corpusBytes('ifc', 'Ifc4WithNestedLists.ifczip'), { fileName: 'Ifc4WithNestedLists.ifczip' });
    expect(scene.source.schema).toBe('IFC4');
    expect(scene.stats.triangles).toBeGreaterThan(0);
  });

  it('is Y-up metres: AC20 door "Innentuer-1" stands from y = 0 to its OverallHeight 2.01', async () => {
    const scene = await read('AC20-FZK-Haus.ifc');
    const node = scene.nodes.find((n) => n.metadata.name === 'Innentuer-1' && n.metadata.ifcClass === 'IfcDoor')!;
    let lo = Infinity,
      hi = -Infinity;
    for (const m of node.meshes) {
      const p = scene.meshes[m]!.positions;
      for (let i = 1; i < p.length; i += 3) {
        lo = Math.min(lo, p[i]!);
        hi = Math.max(hi, p[i]!);
      }
    }
    expect(lo).toBeCloseTo(0, 3);
    expect(hi).toBeCloseTo(2.01, 3);
    expect(node.metadata.storey).toBeTruthy();
  });

  it.each([
    'duplex.ifc',
    'AC20-FZK-Haus.ifc',
    'Office_A_20110811.ifc',
    'SampleHouse4.ifc',
    'IfcOpenHouse_IFC4.ifc',
    'wall_door_columnt_rgb4x3.ifc',
  ])('%s: every door is linked to its opening and wall, and its measured opening is a valid door opening', async (name) => {
    const scene = await read(name);
    expect(scene.doorOpenings.length).toBeGreaterThan(0);
    for (const d of scene.doorOpenings) {
      expect(d.opening?.ifcClass).toBe('IfcOpeningElement');
      expect(d.wall?.ifcClass).toMatch(/^IfcWall/);
      expect(d.faces).toHaveLength(2);
      if (d.overallWidth !== undefined) expect(Math.abs(d.width - d.overallWidth)).toBeLessThan(0.05);
      if (d.overallHeight !== undefined) expect(Math.abs(d.height - d.overallHeight)).toBeLessThan(0.05);
      expect(d.thickness).toBeGreaterThan(0.01); // Office_A has doors in 25 mm partitions
      expect(d.thickness).toBeLessThan(1);
      const [front, back] = d.faces;
      expect(front!.normal[0] + back!.normal[0]).toBeCloseTo(0, 9);
      expect(front!.normal[2] + back!.normal[2]).toBeCloseTo(0, 9);
      // The geometry package, which knows nothing of IFC, accepts both faces as door openings.
      for (const face of d.faces) {
        const o = validateOpening({ corners: face.corners, wallNormal: face.normal });
        expect(o.width).toBeCloseTo(d.width, 4);
        expect(o.height).toBeCloseTo(d.height, 4);
      }
    }
  });

  it('measures the opening on the wall faces: IfcOpenHouse east wall is 0.36 m thick, door on x = 5.00', async () => {
    const [d] = (await read('IfcOpenHouse_IFC4.ifc')).doorOpenings;
    expect(d!.thickness).toBeCloseTo(0.36, 3);
    expect(Math.abs(d!.faces[0]!.normal[0])).toBeCloseTo(1, 9);
    const xs = d!.faces.map((f) => f.corners[0][0]).sort();
    expect(xs[0]).toBeCloseTo(4.64, 3);
    expect(xs[1]).toBeCloseTo(5.0, 3);
  });
});

describe('readIfc keeps georeferenced models exact', () => {
  it('a model moved 5·10⁵ m away is re-centred in float64 and loses nothing', async () => {
    const far = await readIfc(farAwayIfcOpenHouse());
    const near = await read('IfcOpenHouse_IFC4.ifc');
    expect(Math.abs(far.offset[0] - 5e5)).toBeLessThan(100);
    expect(Math.abs(far.offset[2] + 6e5)).toBeLessThan(100); // z-up y becomes y-up −z
    expect(far.warnings.map((w) => w.code)).toContain('recentred');
    expect(far.stats.triangles).toBe(near.stats.triangles);
    // Delivered geometry + offset = original geometry + the shift, to well under a millimetre
    // (float32 at 6·10⁵ m would be off by up to 3 cm).
    let worst = 0;
    far.meshes.forEach((m, i) => {
      const a = m.positions,
        b = near.meshes[i]!.positions;
      for (let v = 0; v < a.length; v += 3) {
        worst = Math.max(
          worst,
          Math.abs(a[v]! + far.offset[0] - (b[v]! + 5e5)),
          Math.abs(a[v + 1]! + far.offset[1] - b[v + 1]!),
          Math.abs(a[v + 2]! + far.offset[2] - (b[v + 2]! - 6e5)),
        );
      }
    });
    expect(worst).toBeLessThan(1e-3);
    expect(Math.max(...far.bounds.max.map(Math.abs), ...far.bounds.min.map(Math.abs))).toBeLessThan(100);
    expect(far.bounds).toEqual(sceneBounds(far));
    // Normals do not move with the model.
    far.meshes.forEach((m, i) => expect(m.normals).toEqual(near.meshes[i]!.normals));
    // The door index is measured on the re-centred geometry: its faces move with the model, exactly.
    const shift = [5e5 - far.offset[0], -far.offset[1], -6e5 - far.offset[2]];
    expect(far.doorOpenings.length).toBe(near.doorOpenings.length);
    expect(far.doorOpenings.length).toBeGreaterThan(0);
    far.doorOpenings.forEach((d, i) =>
      d.faces.forEach((face, j) =>
        face.corners.forEach((corner, c) =>
          corner.forEach((v, k) => {
            expect(Math.abs(v - (near.doorOpenings[i]!.faces[j]!.corners[c]![k]! + shift[k]!))).toBeLessThan(1e-3);
          }),
        ),
      ),
    );
  });
});

describe('readIfc refuses what web-ifc cannot read, with the reason', () => {
  const good = () => corpusBytes('ifc', 'AC20-FZK-Haus.ifc');
  it('a truncated file (web-ifc would half-read it silently)', async () => {
    await expect(readIfc(good().subarray(0, 1_000_000), { fileName: 'cut.ifc' })).rejects.toThrow(/cut\.ifc: the file is truncated/);
  });
  it('an unknown schema', async () => {
    const text = new TextDecoder('latin1')
      .decode(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'))
      .replace("FILE_SCHEMA(('IFC4'))", "FILE_SCHEMA(('IFC9'))");
    await expect(readIfc(new TextEncoder().encode(text))).rejects.toThrow(/IFC9/);
  });
  it('no FILE_SCHEMA', async () => {
    await expect(readIfc(new TextEncoder().encode('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n'))).rejects.toThrow(
      /no FILE_SCHEMA/,
    );
  });
  it('a body with no drawable geometry reads as an empty scene with a warning', async () => {
    const text = "ISO-10303-21;\nHEADER;\nFILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n#1=IFCWALL('a',$,$);\nENDSEC;\nEND-ISO-10303-21;\n";
    const scene = await readIfc(new TextEncoder().encode(text));
    expect(scene.stats.triangles).toBe(0);
    expect(scene.warnings.map((w) => w.code)).toEqual(['no_geometry']);
    expect(scene.offset).toEqual([0, 0, 0]);
  });
});

describe('readIfc re-centres on the building, not on stray elements', () => {
  it('a footing left at the origin of a site moved 400 km away does not drag the offset', async () => {
    const base = new TextDecoder('latin1').decode(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'));
    // Site 400 km east; the footing's placement made absolute, i.e. left at the origin.
    const geo = base.replace('#21=IFCCARTESIANPOINT((0.,0.,0.));', '#21=IFCCARTESIANPOINT((400000000.,0.,0.));');
    const stray = geo.replace('#93=IFCLOCALPLACEMENT(#37,#92);', '#93=IFCLOCALPLACEMENT($,#92);');
    expect(stray).not.toBe(geo);
    const scene = await readIfc(new TextEncoder().encode(stray));
    expect(Math.abs(scene.offset[0] - 400_000)).toBeLessThan(50);
    expect(scene.warnings.map((w) => w.code)).toContain('far_outliers');
    // The building is delivered where the file puts it, less the offset, to well under a
    // millimetre (placed again from its own vertices in float64). The footing, stored near the
    // origin before the offset was known, is moved by it: as exact as float32 is 400 km out.
    const near = await read('IfcOpenHouse_IFC4.ifc');
    const worst = (i: number, shift: number) => {
      const a = scene.meshes[i]!.positions,
        b = near.meshes[i]!.positions;
      let w = 0;
      for (let v = 0; v < a.length; v += 3) {
        w = Math.max(
          w,
          Math.abs(a[v]! + scene.offset[0] - (b[v]! + shift)),
          Math.abs(a[v + 1]! + scene.offset[1] - b[v + 1]!),
          Math.abs(a[v + 2]! + scene.offset[2] - b[v + 2]!),
        );
      }
      return w;
    };
    expect(scene.meshes.filter((m) => m.name === 'IfcFooting')).toHaveLength(1);
    scene.meshes.forEach((m, i) => {
      if (m.name === 'IfcFooting')
        expect(worst(i, 0)).toBeLessThan(2 ** (18 - 23) / 2 + 1e-6); // half a float32 step at 4·10⁵
      else expect(worst(i, 400_000)).toBeLessThan(1e-3);
    });
    expect(scene.bounds).toEqual(sceneBounds(scene));
  });
});
