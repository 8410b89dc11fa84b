import { describe, expect, it } from 'vitest';
import { mergeByMaterial, readIfc } from '../src/index.js';
import { trianglesWithoutElement } from '../src/scene/trianglesWithoutElement.js';
import { corpusBytes } from '../../../test/support/corpus.js';

describe('trianglesWithoutElement', () => {
  it('is 0 for an IFC as read and merged; counts what no run or named node owns', async () => {
    const scene = await readIfc(corpusBytes('ifc', 'duplex.ifc'));
    expect(trianglesWithoutElement(scene)).toBe(0);
    const merged = mergeByMaterial(scene, { minDrawCalls: 0 });
    expect(merged.meshes.some((m) => m.elements)).toBe(true);
    expect(trianglesWithoutElement(merged)).toBe(0);
    // A run that names nothing, and a mesh drawn by an unnamed node, are counted.
    const mesh = merged.meshes.find((m) => m.elements && m.elements.length > 1)!;
    const run = mesh.elements![0]!;
    run.metadata = {};
    expect(trianglesWithoutElement(merged)).toBe(run.triangleCount);
    const unnamed = {
      nodes: [{ name: '', parent: -1, matrix: new Float64Array(16), meshes: [0], metadata: {} }],
      meshes: [{ ...mesh, elements: undefined }],
    };
    expect(trianglesWithoutElement(unnamed)).toBe(mesh.indices.length / 3);
  });
});
