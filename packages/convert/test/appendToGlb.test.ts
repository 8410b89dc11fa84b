// Placement marks drawn into a GLB: appended, not re-encoded; the model's own content untouched,
// the marks where they were asked for, read back by glTF-Transform.
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { appendToGlb, readGlb, writeGlb, type OverlayShapes } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';
import { PNG_1X1 } from './support/usdzOf.js';

const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const SHAPES: OverlayShapes = {
  lines: [
    { from: [0, 0, 0], to: [2, 0, 0], color: [1, 0, 0] },
    { from: [0, 0, 0], to: [0, 3, 0], color: [0, 1, 0] },
  ],
  arrows: [{ from: [0, 1, 0], to: [0, 1, 1], color: [0, 0, 1] }],
  quads: [
    {
      corners: [
        [-1, 0, -1],
        [1, 0, -1],
        [1, 2, -1],
        [-1, 2, -1],
      ],
      color: [1, 1, 1],
      opacity: 0.8,
      image: { data: PNG_1X1, mimeType: 'image/png' },
    },
  ],
  thickness: 0.02,
};

describe('appendToGlb', () => {
  it('adds the marks as one node of the scene; the model keeps every mesh, triangle and texture', async () => {
    const model = await writeGlb(await readGlb(corpusBytes('glb', 'BoxTextured.glb')));
    const marked = concat(appendToGlb(model, SHAPES, { name: 'placement' }));
    // The model's binary data is where it was: the new file repeats it byte for byte.
    expect(Buffer.from(marked).includes(Buffer.from(model.subarray(model.length - 64)))).toBe(true);
    const io = new NodeIO();
    const [before, after] = [await io.readBinary(model), await io.readBinary(marked)];
    const overlay = after
      .getRoot()
      .listNodes()
      .find((n) => n.getName() === 'placement')!;
    expect(after.getRoot().listScenes()[0]!.listChildren()).toContain(overlay);
    expect(overlay.listChildren()).toHaveLength(4); // red, green, blue and the image quad
    expect(after.getRoot().listMeshes()).toHaveLength(before.getRoot().listMeshes().length + 4);
    expect(after.getRoot().listTextures()).toHaveLength(before.getRoot().listTextures().length + 1);
    const beforeMesh = before.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
    const afterMesh = after.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
    expect(Array.from(afterMesh.getAttribute('POSITION')!.getArray()!)).toEqual(
      Array.from(beforeMesh.getAttribute('POSITION')!.getArray()!),
    );
  });

  it('draws each mark where it was asked for, its bounds the shape widened by the thickness', async () => {
    const marked = concat(appendToGlb(await writeGlb(await readGlb(corpusBytes('glb', 'Box.glb'))), SHAPES));
    const doc = await new NodeIO().readBinary(marked);
    const overlay = doc
      .getRoot()
      .listNodes()
      .find((n) => n.getName() === 'overlay')!;
    const boundsOf = (i: number) => {
      const p = overlay.listChildren()[i]!.getMesh()!.listPrimitives()[0]!.getAttribute('POSITION')!;
      return { min: p.getMin([]), max: p.getMax([]) };
    };
    // Red: both bars of one colour share a mesh; the x bar spans 0–2, ±0.01 around its axis.
    const red = boundsOf(0);
    expect(red.min.map((v) => +v.toFixed(4))).toEqual([0, -0.01, -0.01]);
    expect(red.max.map((v) => +v.toFixed(4))).toEqual([2, 0.01, 0.01]);
    // Blue: the arrow reaches its tip at z = 1; its head is three bars wide.
    const blue = boundsOf(2);
    expect(blue.max[2]).toBeCloseTo(1, 6);
    expect(blue.max[0]).toBeCloseTo(0.03, 6);
    const quad = overlay.listChildren()[3]!.getMesh()!.listPrimitives()[0]!;
    expect(quad.getMaterial()!.getBaseColorTexture()!.getImage()).toEqual(new Uint8Array(PNG_1X1));
    expect(quad.getMaterial()!.getDoubleSided()).toBe(true);
  });

  it('refuses what is not a GLB', () => {
    expect(() => appendToGlb(new Uint8Array(40), SHAPES)).toThrow(/not a GLB/);
  });
});
