import { describe, expect, it } from 'vitest';
import {
  checkMeshNodeLimit,
  countMeshNodes,
  MESH_NODE_LIMIT,
  MeshNodeLimitError,
  ModelUnreadableError,
  readGlbJson,
} from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';
import { glbOf } from '../../../test/support/glbOf.js';

describe('the 5000 mesh-node limit', () => {
  it('is 5000', () => expect(MESH_NODE_LIMIT).toBe(5000));

  it('passes exactly 5000 (manifest: 5011 nodes, 5000 with a mesh)', () => {
    const bytes = corpusBytes('glb', 'Synthetic_5000MeshNodes_shared.glb');
    expect(readGlbJson(bytes).nodes).toHaveLength(5011);
    expect(checkMeshNodeLimit(bytes, { fileName: 'Synthetic_5000MeshNodes_shared.glb' })).toBe(5000);
  });

  it('refuses 5001, naming the file and the count', () => {
    const bytes = corpusBytes('glb', 'Synthetic_5001MeshNodes_shared.glb');
    let error: unknown;
    try {
      checkMeshNodeLimit(bytes, { fileName: 'Synthetic_5001MeshNodes_shared.glb', field: 'model_files' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(MeshNodeLimitError);
    const e = error as MeshNodeLimitError;
    expect([e.code, e.count, e.limit, e.field, e.fileName]).toEqual([
      'mesh_node_limit',
      5001,
      5000,
      'model_files',
      'Synthetic_5001MeshNodes_shared.glb',
    ]);
    expect(e.message).toContain('Synthetic_5001MeshNodes_shared.glb has 5001 mesh nodes');
  });

  it('counts an instanced node once per instance (SimpleInstancing: 125)', () => {
    expect(countMeshNodes(readGlbJson(corpusBytes('glb', 'SimpleInstancing.glb')))).toBe(125);
  });

  it('agrees with the manifest for every other corpus GLB', () => {
    const expected: Record<string, number> = {
      'Box.glb': 1,
      'BoxTextured.glb': 1,
      'AnimatedMorphCube.glb': 1,
      'CesiumMan.glb': 1,
      'MorphStressTest.glb': 1,
      'DamagedHelmet-meshopt.glb': 1,
      'DamagedHelmet.glb': 1,
      'AnisotropyBarnLamp-KTX2.glb': 3,
      'Avocado-Draco.glb': 1,
    };
    for (const [name, count] of Object.entries(expected)) expect(countMeshNodes(readGlbJson(corpusBytes('glb', name))), name).toBe(count);
  });

  it('instances push a small file over the limit', () => {
    const json = {
      asset: { version: '2.0' },
      accessors: [{ count: 5001 }],
      nodes: [{ mesh: 0, extensions: { EXT_mesh_gpu_instancing: { attributes: { TRANSLATION: 0 } } } }],
    };
    expect(() => checkMeshNodeLimit(glbOf(json))).toThrow(MeshNodeLimitError);
  });
});

describe('readGlbJson refuses broken GLBs with the reason', () => {
  const good = corpusBytes('glb', 'Box.glb');
  it.each([
    ['truncated to 10 bytes', good.subarray(0, 10), /only 10 bytes/],
    ['truncated in the middle', good.subarray(0, 900), /declares 1664 bytes but the file has 900/],
    [
      'wrong container version',
      (() => {
        const b = good.slice();
        b[4] = 1;
        return b;
      })(),
      /version 1/,
    ],
    [
      'JSON length past the end',
      (() => {
        const b = good.slice();
        new DataView(b.buffer).setUint32(12, 99999, true);
        return b;
      })(),
      /runs past the end/,
    ],
    [
      'JSON chunk not JSON',
      (() => {
        const b = good.slice();
        b[20] = 0x7d;
        return b;
      })(),
      /not valid JSON/,
    ],
  ])('%s', (_, bytes, why) => {
    expect(() => readGlbJson(bytes, 'Box.glb')).toThrow(ModelUnreadableError);
    expect(() => readGlbJson(bytes, 'Box.glb')).toThrow(why);
  });
  it('an instancing extension pointing at a missing accessor', () => {
    const json = {
      asset: { version: '2.0' },
      nodes: [{ mesh: 0, extensions: { EXT_mesh_gpu_instancing: { attributes: { TRANSLATION: 7 } } } }],
    };
    expect(() => countMeshNodes(readGlbJson(glbOf(json)))).toThrow(/accessor 7/);
  });
});
