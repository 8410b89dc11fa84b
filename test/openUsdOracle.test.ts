// Every USDZ we write, opened by a real OpenUSD (22.x with Hydra, in Chromium): what it draws is
// what our detail and reports state — the same triangles, the same world bounds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchorUsdz, classInWords, convertModel, fitArBudget, readModel, readUsdz, type SceneData } from '@arsession/convert';
import { StreamReduction } from '@arsession/convert/budget';
import { corpusBytes, corpusFiles } from './support/corpus.js';
import { rawZipEntries } from './support/usdReader.js';
import { zipArchive } from './support/zipArchive.js';
import { inMetresYUp, startOpenUsd, type OpenUsd } from './support/openUsd/openUsd.js';
import { repeatedColumnsIfc } from './support/movedIfc.js';

let usd: OpenUsd;
beforeAll(async () => {
  usd = await startOpenUsd();
});
afterAll(async () => {
  await usd?.close();
});

const REFUSED = new Set([
  'glb/Synthetic_5001MeshNodes_shared.glb',
  'usdz/bad_alembic.usdz',
  'usdz/bad_refAbc.usdz',
  'usdz/bad_unencapsulated_layer.usdz',
  'usdz/first_file_not_usd.usdz',
]);
const converted = (['ifc', 'glb', 'usdz'] as const)
  .flatMap((kind) => corpusFiles(kind).map((name) => [kind, name] as const))
  .filter(([k, n]) => !REFUSED.has(`${k}/${n}`));

/** Triangles a scene draws: each mesh at every node that draws it. */
function drawnTriangles(scene: SceneData): number {
  return scene.nodes.reduce((n, node) => n + node.meshes.reduce((k, m) => k + scene.meshes[m]!.indices.length / 3, 0), 0);
}

/** Triangles of the meshes a scene draws, each counted once: what Hydra draws of an instanced delivery. */
function distinctTriangles(scene: SceneData): number {
  return [...new Set(scene.nodes.flatMap((node) => node.meshes))].reduce((n, m) => n + scene.meshes[m]!.indices.length / 3, 0);
}

describe('OpenUSD opens every USDZ we deliver for a corpus model', () => {
  it.each(converted)('%s/%s: the triangles and world bounds we state', async (kind, name) => {
    const result = await convertModel(corpusBytes(kind, name), { fileName: name });
    const report = await usd.open(result.usdz!, `${name}.usdz`);
    expect(report.error).toBeUndefined();

    if (report.instances) {
      // Hydra draws an instanced prototype once, and this build cannot say how often it places
      // it: OpenUSD must draw each mesh of the delivered scene once, which draws the triangles we state.
      expect(report.diagnostics).toEqual([]);
      const delivered = (
        await fitArBudget(
          await readModel(corpusBytes(kind, name), { fileName: name, reduction: new StreamReduction() }),
          {},
          { fileName: name },
        )
      ).scene;
      expect(drawnTriangles(delivered)).toBe(result.stats.triangles);
      expect(report.triangles).toBe(distinctTriangles(delivered));
      return;
    }
    expect(report.triangles).toBe(result.stats.triangles);
    // An empty stage (Pixar's single_* fixtures) draws nothing, and we state nothing.
    if (result.stats.triangles === 0) return expect(report.bounds).toBeNull();
    const bounds = inMetresYUp(report);
    // The stated bounds are the full model's. A simplified delivery keeps a subset of its vertices,
    // so what is drawn lies inside them, short of them by no more than what was left out.
    const shrink = (result.budget?.maxUncovered ?? 0) + 5e-4;
    for (let k = 0; k < 3; k++) {
      expect(bounds.min[k]).toBeGreaterThanOrEqual(result.bounds.min[k]! - 5e-4);
      expect(bounds.max[k]).toBeLessThanOrEqual(result.bounds.max[k]! + 5e-4);
      expect(bounds.min[k]! - result.bounds.min[k]!).toBeLessThanOrEqual(shrink);
      expect(result.bounds.max[k]! - bounds.max[k]!).toBeLessThanOrEqual(shrink);
    }
  });
});

describe('OpenUSD and the packages we repack', () => {
  it('a deflated package, which OpenUSD cannot open, is delivered repacked, and OpenUSD draws it', async () => {
    const entries = rawZipEntries(corpusBytes('usdz', 'clean_clean_arkit.usdz'));
    const upload = zipArchive(entries.map((e) => ({ name: e.name, data: e.data, deflate: true })));
    expect((await usd.open(upload, 'deflated.usdz')).error).toMatch(/cannot open it/);
    const result = await convertModel(upload, { fileName: 'deflated.usdz' });
    expect(result.delivery).toBe('repacked');
    const drawn = await usd.open(result.usdz!, 'delivered.usdz');
    expect(drawn.error).toBeUndefined();
    expect(drawn.triangles).toBe(result.stats.triangles);
    expect(drawn.triangles).toBeGreaterThan(0);
  });
});

describe('OpenUSD and instanced deliveries', () => {
  it(
    'repeated meshes of a model the budget changes are written once and instanced: ' +
      'OpenUSD composes them cleanly, each with its material, anchored too',
    async () => {
      const name = 'SimpleInstancing.glb';
      const result = await convertModel(corpusBytes('glb', name), { fileName: name, budget: { triangles: 1000 } });
      expect(result.budget!.steps).toEqual(['simplified']);
      // Our reader composes every instance: 125 cubes, the triangles the detail states.
      const back = await readUsdz(result.usdz!);
      expect(back.stats.meshNodes).toBe(125);
      expect(back.stats.triangles).toBe(result.stats.triangles);

      const up = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      const anchored = new Uint8Array(
        Buffer.concat(anchorUsdz(result.usdz!, { anchoring: { type: 'plane', alignment: 'horizontal' }, modelToAnchor: up })),
      );
      for (const [bytes, root] of [
        [result.usdz!, '/Model'],
        [anchored, '/Anchored/Placed/Model'],
      ] as const) {
        const report = await usd.open(bytes, 'instanced.usdz');
        expect(report.error).toBeUndefined();
        expect(report.diagnostics).toEqual([]);
        // OpenUSD read 125 instanceable prims from our crate; Hydra draws their one prototype once.
        expect(report.instances).toBe(125);
        expect(report.meshes).toBe(1);
        expect(report.triangles! * 125).toBe(result.stats.triangles);
        // The material bound on the instances reaches the prototype's mesh.
        for (const material of Object.values(report.materials!)) expect(material).toMatch(new RegExp(`^${root}/Materials/`));
      }
    },
  );

  it(
    'an IFC reduced as it streamed keeps its repeated geometry ' + '(mapped items) shared: OpenUSD composes the instances cleanly',
    async () => {
      // Twenty more of a Revit column (a mapped item): most of what the model draws is one geometry.
      const result = await convertModel(repeatedColumnsIfc(20), { fileName: 'columns.ifc', budget: { triangles: 10_000, meshPrims: 25 } });
      expect(result.budget!.steps).toEqual(['merged', 'simplified']);
      const kept = Number(
        /(\d+) repeated mesh(?:es)? kept as instances/.exec(result.warnings.find((w) => w.code === 'budget_merged')!.message)![1],
      );
      expect(kept).toBeGreaterThan(0);
      const back = await readUsdz(result.usdz!);
      expect(back.stats.triangles).toBe(result.stats.triangles);
      const report = await usd.open(result.usdz!, 'reduced.usdz');
      expect(report.error).toBeUndefined();
      expect(report.diagnostics).toEqual([]);
      // Every kept mesh is drawn at two places or more; Hydra draws each prototype once.
      expect(report.instances).toBeGreaterThanOrEqual(2 * kept);
      expect(report.meshes).toBe(result.stats.drawCalls - report.instances! + kept);
      expect(report.triangles).toBeLessThan(result.stats.triangles);
      for (const material of Object.values(report.materials!)) expect(material).toMatch(/^\/Model\/Materials\//);
    },
  );

  it('a model within budget with repeated meshes is written as it always was: no instancing', async () => {
    const result = await convertModel(corpusBytes('glb', 'SimpleInstancing.glb'), { fileName: 'SimpleInstancing.glb' });
    expect(result.budget!.steps).toEqual([]);
    const report = await usd.open(result.usdz!, 'plain.usdz');
    expect(report.instances).toBe(0);
    expect(report.meshes).toBe(125);
  });
});

describe('OpenUSD reads the storeys of an IFC delivery and what a screen reader says of them', () => {
  it.each(corpusFiles('ifc'))('ifc/%s: every drawn mesh lies under its storey, labelled with its name', async (name) => {
    const bytes = corpusBytes('ifc', name);
    const read = await readModel(bytes, { fileName: name });
    // What each container is called: its name, or its class in words where it has none.
    const storeys = new Set((read.levels ?? []).map((l) => l.storey.name || classInWords(l.storey.ifcClass)));
    const result = await convertModel(bytes, { fileName: name });
    const report = await usd.open(result.usdz!, `${name}.usdz`);
    expect(report.error).toBeUndefined();
    const spoken = Object.entries(report.spoken!);
    expect(spoken.length).toBe(report.meshes);
    for (const [path, texts] of spoken) {
      // The outermost labelled prim is the storey (or the building or site holding the element).
      const storey = texts.at(-1);
      expect(storey, `${path} has no labelled prim above it`).toBeDefined();
      expect(storeys, `${path}: ${storey!.label} is not a storey of the file`).toContain(storey!.label);
      // An element drawn as its own prim says what it is beneath its storey.
      for (const element of texts.slice(0, -1)) expect(element.description).toMatch(/\S on \S/);
    }
  });

  it('a merged delivery names each storey once, with the elevation the file states', async () => {
    const result = await convertModel(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'), { fileName: 'AC20-FZK-Haus.ifc' });
    expect(result.budget!.steps).toContain('merged');
    const report = await usd.open(result.usdz!, 'ac20.usdz');
    const storeys = new Map(Object.values(report.spoken!).map((texts) => [texts.at(-1)!.prim, texts.at(-1)!]));
    // AC20 states Erdgeschoss at 0 and Dachgeschoss at 2.7 m; its terrain is the site's own geometry.
    expect([...storeys.values()].map((s) => `${s.label}: ${s.description}`).sort()).toEqual([
      'Dachgeschoss: Storey at elevation 2.7 m',
      'Erdgeschoss: Storey at elevation 0 m',
      'Gelaende: Site',
    ]);
  });
});

describe('OpenUSD reads which element each face of a merged delivery is', () => {
  it.each(corpusFiles('ifc'))('ifc/%s: every face names a GlobalId of the file', async (name) => {
    const bytes = corpusBytes('ifc', name);
    const read = await readModel(bytes, { fileName: name });
    const globalIds = new Set(read.nodes.map((n) => n.metadata.globalId).filter(Boolean));
    const result = await convertModel(bytes, { fileName: name });
    const report = await usd.open(result.usdz!, `${name}.usdz`);
    expect(report.error).toBeUndefined();
    const named = Object.entries(report.elements!).filter(([, e]) => e !== null);
    // Merged or drawn for one element, each mesh prim names its faces' elements; an instanced one
    // (a prototype drawn for many) names none, its instance's Xform does.
    if (report.instances === 0) expect(named.length).toBe(report.meshes);
    for (const [path, e] of named) {
      expect(e!.outOfTable, `${path}: an index past the table`).toBeUndefined();
      expect(e!.faces, `${path}: one value per face`).toBe(e!.drawnFaces);
      for (const id of Object.keys(e!.ids)) expect(globalIds, `${path}: ${id}`).toContain(id);
    }
  });

  it('a merged GLB names each face by its glTF node', async () => {
    const name = 'Synthetic_5000MeshNodes_shared.glb';
    const result = await convertModel(corpusBytes('glb', name), { fileName: name });
    const report = await usd.open(result.usdz!, 'nodes.usdz');
    const merged = Object.values(report.elements!).filter((e) => e !== null);
    expect(merged.length).toBe(report.meshes);
    const ids = merged.flatMap((e) => Object.keys(e!.ids));
    expect(ids.every((id) => /^\/nodes\/\d+$/.test(id))).toBe(true);
    // Each of the file's mesh nodes is one element, its faces in one place.
    expect(new Set(ids).size).toBe(ids.length);
    expect(merged.reduce((n, e) => n + e!.faces, 0)).toBe(report.triangles);
  });
});

describe('OpenUSD switches the storeys of a delivery with its storey variant set', () => {
  it.each(['AC20-FZK-Haus.ifc', 'duplex.ifc'])('ifc/%s: each storey variant draws that storey alone', async (name) => {
    const result = await convertModel(corpusBytes('ifc', name), { fileName: name });
    const storeys = result.storeys!.map((s) => s.prim.split('/').at(-1)!);
    expect(storeys.length).toBeGreaterThan(1);
    const whole = await usd.open(result.usdz!, `${name}.usdz`, undefined, { storey: 'all' });
    expect(whole.error).toBeUndefined();
    expect(whole.diagnostics).toEqual([]);
    const plain = await usd.open(result.usdz!, `${name}.usdz`);
    // Selecting "all" is what a viewer that ignores variants draws: the whole model.
    expect(whole.paths).toEqual(plain.paths!.map((p) => p.replace(/^\/Model\//, '/Selected/')));
    let drawn = 0;
    for (const storey of storeys) {
      const alone = await usd.open(result.usdz!, `${name}.usdz`, undefined, { storey });
      expect(alone.diagnostics).toEqual([]);
      const under = whole.paths!.filter((p) => p.startsWith(`/Selected/${storey}/`));
      // Every other storey is off the stage; what lies outside the storeys (none here) would stay.
      expect(alone.paths).toEqual(whole.paths!.filter((p) => under.includes(p) || !storeys.some((s) => p.startsWith(`/Selected/${s}/`))));
      expect(under.length).toBeGreaterThan(0);
      drawn += under.length;
    }
    expect(drawn).toBe(whole.meshes);
    // Anchored for Quick Look, the model and its variant set move under the anchor whole.
    const up = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const anchored = Buffer.concat(anchorUsdz(result.usdz!, { anchoring: { type: 'plane', alignment: 'horizontal' }, modelToAnchor: up }));
    const placed = await usd.open(new Uint8Array(anchored), `${name}.anchored.usdz`);
    expect(placed.diagnostics).toEqual([]);
    expect(placed.paths).toEqual(plain.paths!.map((p) => p.replace(/^\/Model\//, '/Anchored/Placed/Model/')));
    const back = await readUsdz(new Uint8Array(anchored));
    expect(back.stats.triangles).toBe(result.stats.triangles);
  });
});
