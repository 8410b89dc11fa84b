import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AR_BUDGET_DEFAULTS, fitArBudget, readGlb, readModel, writeGlb, type SceneData } from '../src/index.js';
import { elementFeatures } from '../src/glb/elementFeatures.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';

/** A GLB's JSON and binary chunk, read by hand: what any viewer sees, without our reader or gltf-transform. */
function chunks(glb: Uint8Array): { json: any; bin: Uint8Array } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binAt = 20 + jsonLength;
  return { json, bin: glb.subarray(binAt + 8, binAt + 8 + view.getUint32(binAt, true)) };
}

function accessorArray(json: any, bin: Uint8Array, index: number): number[] {
  const a = json.accessors[index];
  const view = json.bufferViews[a.bufferView];
  const components = { SCALAR: 1, VEC2: 2, VEC3: 3 }[a.type as 'SCALAR'];
  const bytes = { 5121: 1, 5123: 2, 5125: 4, 5126: 4 }[a.componentType as 5121];
  // Vertex attributes may be interleaved: each element starts a stride after the last.
  const stride = view.byteStride ?? components * bytes;
  const data = new DataView(bin.buffer, bin.byteOffset + (view.byteOffset ?? 0) + (a.byteOffset ?? 0));
  const read = (at: number) =>
    ({
      5121: () => data.getUint8(at),
      5123: () => data.getUint16(at, true),
      5125: () => data.getUint32(at, true),
      5126: () => data.getFloat32(at, true),
    })[a.componentType as 5121]();
  const out: number[] = [];
  for (let i = 0; i < a.count; i++) for (let c = 0; c < components; c++) out.push(read(i * stride + c * bytes));
  return out;
}

function stringColumn(json: any, bin: Uint8Array, column: { values: number; stringOffsets: number }): string[] {
  const bytes = (v: number) => {
    const view = json.bufferViews[v];
    return bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
  };
  const offsets = new Uint32Array(bytes(column.stringOffsets).slice().buffer);
  const values = bytes(column.values);
  return Array.from({ length: offsets.length - 1 }, (_, i) => new TextDecoder().decode(values.subarray(offsets[i]!, offsets[i + 1]!)));
}

/** Each delivered triangle's GlobalId as the scene states it: its run's, or its node's. */
function sceneTriangleIds(scene: SceneData): string[][] {
  const nodeOf = new Map<number, string>();
  for (const node of scene.nodes) for (const m of node.meshes) nodeOf.set(m, node.metadata.globalId ?? '');
  return scene.meshes.map((mesh, m) => {
    const ids = new Array<string>(mesh.indices.length / 3).fill(nodeOf.get(m) ?? '');
    for (const run of mesh.elements ?? []) ids.fill(run.metadata.globalId ?? '', run.firstTriangle, run.firstTriangle + run.triangleCount);
    return ids;
  });
}

describe('GLB element identity (EXT_mesh_features, EXT_structural_metadata)', () => {
  it.each(corpusFiles('ifc'))('ifc/%s: every delivered triangle names its element through its feature ids', async (name) => {
    const scene = await readModel(corpusBytes('ifc', name), { fileName: name });
    const delivered = (await fitArBudget(scene, AR_BUDGET_DEFAULTS)).scene;
    const { json, bin } = chunks(await writeGlb(delivered));
    expect(json.extensionsUsed).toEqual(expect.arrayContaining(['EXT_mesh_features', 'EXT_structural_metadata']));
    const table = json.extensions.EXT_structural_metadata.propertyTables[0];
    expect(table.class).toBe('element');
    const globalIds = stringColumn(json, bin, table.properties.globalId);
    expect(globalIds).toHaveLength(table.count);
    // Triangles per GlobalId, as the scene states them and as the GLB's feature ids say.
    const expected = new Map<string, number>();
    for (const ids of sceneTriangleIds(delivered)) for (const id of ids) expected.set(id, (expected.get(id) ?? 0) + 1);
    const found = new Map<string, number>();
    const primitives = new Set<any>(
      json.nodes.filter((n: any) => n.mesh !== undefined).flatMap((n: any) => json.meshes[n.mesh].primitives),
    );
    for (const prim of primitives) {
      expect(prim.extensions.EXT_mesh_features.featureIds[0].propertyTable).toBe(0);
      const ids = accessorArray(json, bin, prim.attributes._FEATURE_ID_0);
      const indices = accessorArray(json, bin, prim.indices);
      for (let t = 0; t < indices.length / 3; t++) {
        const [a, b, c] = [ids[indices[t * 3]!]!, ids[indices[t * 3 + 1]!]!, ids[indices[t * 3 + 2]!]!];
        expect(a === b && b === c, `triangle ${t}: its corners name different elements`).toBe(true);
        const id = globalIds[a];
        expect(id, `triangle ${t} names no element`).toBeDefined();
        found.set(id!, (found.get(id!) ?? 0) + 1);
      }
    }
    expect(found).toEqual(expected);
  });

  it("a GLB's elements are its nodes, by pointer; a scene without identity gets no table; our GLB reads back the same", async () => {
    const box = await readGlb(corpusBytes('glb', 'Box.glb'));
    const { json, bin } = chunks(await writeGlb(box));
    const table = json.extensions.EXT_structural_metadata.propertyTables[0];
    // Box.glb draws its mesh at node 1 (node 0, its parent, turns Z up to Y).
    expect(stringColumn(json, bin, table.properties.id)).toEqual(['/nodes/1']);
    expect(stringColumn(json, bin, table.properties.globalId)).toEqual(['']);
    const anonymous = { ...box, nodes: box.nodes.map((n) => ({ ...n, name: '', metadata: {} })) };
    expect(chunks(await writeGlb(anonymous)).json.extensionsUsed ?? []).not.toContain('EXT_mesh_features');
    const scene = await readModel(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'), { fileName: 'AC20-FZK-Haus.ifc' });
    const back = await readGlb(await writeGlb(scene));
    expect(back.stats.triangles).toBe(scene.stats.triangles);
  });

  it('elementFeatures: a vertex two elements share gives its mesh no ids; runs that keep apart give each vertex its run', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 6 }), fc.boolean(), (sizes, share) => {
        // One triangle strip per element, each with its own vertices unless `share` joins the first two.
        const indices: number[] = [];
        let v = 0;
        const elements = sizes.map((n, e) => {
          const first = indices.length / 3;
          for (let k = 0; k < n; k++) indices.push(v, v + 1, v + 2);
          v += 3;
          return { firstTriangle: first, triangleCount: n, metadata: { globalId: `id${e}` } };
        });
        if (share && sizes.length > 1) indices[indices.length - 1] = 0;
        const scene = {
          nodes: [{ name: 'n', parent: -1, matrix: new Float64Array(16), meshes: [0], metadata: {} }],
          meshes: [{ name: 'm', positions: new Float32Array(v * 3), indices: new Uint32Array(indices), material: 0, elements }],
        } as unknown as SceneData;
        const { ids, elements: rows } = elementFeatures(scene);
        if (share && sizes.length > 1) {
          expect(ids[0]).toBeUndefined();
        } else {
          expect(rows.map((r) => r.globalId)).toEqual(sizes.map((_, e) => `id${e}`));
          for (let i = 0; i < v; i++) expect(ids[0]![i]).toBe(Math.floor(i / 3));
        }
      }),
    );
  });
});
