import { describe, expect, it } from 'vitest';
import { readUsdz, sceneTriangles } from '../src/index.js';
import { tessellateCapsule, tessellateCylinder, tessellateSphere } from '@arsession/usd';
import { METRES_Y_UP, usdzOf } from './support/usdzOf.js';

/** The scene of a one-layer package whose layer holds `body` under the Y-up metre header. */
const sceneOf = (body: string) => readUsdz(usdzOf({ 'scene.usda': `${METRES_Y_UP}${body}` }));
const QUAD = 'point3f[] points = [(0,0,0), (1,0,0), (1,1,0), (0,1,0)]\n int[] faceVertexCounts = [4]\n int[] faceVertexIndices = [0,1,2,3]';

/** Every triangle's geometric normal, in world space. */
function faceNormals(scene: Awaited<ReturnType<typeof readUsdz>>): number[][] {
  const { positions, indices } = sceneTriangles(scene);
  const out: number[][] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]!, indices[t + 1]!, indices[t + 2]!].map((i) => [
      positions[3 * i]!,
      positions[3 * i + 1]!,
      positions[3 * i + 2]!,
    ]) as [number[], number[], number[]];
    const u = b.map((v, k) => v - a[k]!),
      w = c.map((v, k) => v - a[k]!);
    out.push([u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!]);
  }
  return out;
}

describe('USD meshes', () => {
  it('a quad is two counter-clockwise triangles facing +z; leftHanded turns them', async () => {
    const right = await sceneOf(`def Mesh "M" {\n ${QUAD}\n}`);
    expect(right.stats.triangles).toBe(2);
    for (const n of faceNormals(right)) expect(n[2]).toBeGreaterThan(0);
    const left = await sceneOf(`def Mesh "M" {\n ${QUAD}\n uniform token orientation = "leftHanded"\n}`);
    for (const n of faceNormals(left)) expect(n[2]).toBeLessThan(0);
  });

  it('instanceable prims draw their prototype once per instance, each at its own transform', async () => {
    const scene = await sceneOf(
      [
        `class "Proto" {\n def Mesh "M" {\n ${QUAD}\n }\n}`,
        'def Xform "I1" (\n instanceable = true\n references = </Proto>\n) {\n double3 ' +
          'xformOp:translate = (10, 0, 0)\n uniform token[] xformOpOrder = ["xformOp:translate"]\n}',
        'def Xform "I2" (\n instanceable = true\n references = </Proto>\n) {\n double3 ' +
          'xformOp:translate = (0, 0, -5)\n uniform token[] xformOpOrder = ["xformOp:translate"]\n}',
      ].join('\n'),
    );
    // The class itself is not drawn; each instance draws the quad where it stands.
    expect(scene.stats.triangles).toBe(4);
    expect(scene.bounds.min).toEqual([0, 0, -5]);
    expect(scene.bounds.max).toEqual([11, 1, 0]);
  });

  it('polygons are fans, holes are left out, and inconsistent topology skips the mesh with a warning', async () => {
    const scene = await sceneOf(
      'def Mesh "M" {\n point3f[] points = [(0,0,0),(1,0,0),(2,1,0),(1,2,0),(0,1,0),(5,5,5),(6,5,5),(5,6,5)]\n ' +
        'int[] faceVertexCounts = [5, 3]\n int[] faceVertexIndices = [0,1,2,3,4, 5,6,7]\n int[] holeIndices = [1]\n}',
    );
    expect(scene.stats.triangles).toBe(3);
    const bad = await sceneOf(
      'def Mesh "M" {\n point3f[] points = [(0,0,0),(1,0,0),(1,1,0)]\n int[] ' +
        'faceVertexCounts = [3]\n int[] faceVertexIndices = [0,1,7]\n}\ndef ' +
        'Mesh "N" {\n point3f[] points = [(0,0,0),(1,0,0),(1,1,0)]\n int[] faceVertexCounts = [3]\n int[] faceVertexIndices = [0,1,2]\n}',
    );
    expect(bad.stats.triangles).toBe(1);
    expect(bad.warnings.find((w) => w.code === 'mesh_skipped')?.message).toMatch(/\/M: faceVertexIndices has 7, past its 3 points/);
  });

  it("face-varying and indexed texture coordinates arrive per corner, v flipped to glTF's convention", async () => {
    const scene = await sceneOf(
      `def Mesh "M" {\n ${QUAD}\n texCoord2f[] primvars:st = [(0,0), (1,0), (1,1), (0,1)] ` +
        `(\n interpolation = "faceVarying"\n )\n int[] primvars:st:indices = [3, 2, 1, 0]\n}`,
    );
    const mesh = scene.meshes[0]!;
    expect(mesh.positions.length / 3).toBe(4); // one vertex per corner
    expect(Array.from(mesh.uvs!)).toEqual([0, 0, 1, 0, 1, 1, 0, 1]); // (0,1),(1,1),(1,0),(0,0) with v → 1 − v
  });

  it('uniform normals are per face; vertex normals per point', async () => {
    const uniform = await sceneOf(`def Mesh "M" {\n ${QUAD}\n normal3f[] normals = [(0,0,2)] (\n interpolation = "uniform"\n )\n}`);
    expect(Array.from(uniform.meshes[0]!.normals!)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
    const vertex = await sceneOf(
      `def Mesh "M" {\n ${QUAD}\n normal3f[] primvars:normals = [(0,0,1),(0,1,0)] (\n ` +
        `interpolation = "vertex"\n )\n int[] primvars:normals:indices = [0,1,0,1]\n}`,
    );
    expect(Array.from(vertex.meshes[0]!.normals!)).toEqual([0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0]);
  });
});

describe('USD transforms and units', () => {
  it('xformOpOrder applies the last op first: scale, then rotate about X first, then translate', async () => {
    const scene = await sceneOf(
      `def Xform "X" {\n double3 xformOp:translate = (10, 0, 0)\n float3 xformOp:rotateXYZ = (0, 0, 90)\n double3 xformOp:scale = (2, 2, ` +
        `2)\n uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:rotateXYZ", "xformOp:scale"]\n def Mesh "M" {\n ${QUAD}\n }\n}`,
    );
    // (1, 0, 0) → scaled (2, 0, 0) → turned 90° about z (0, 2, 0) → moved (10, 2, 0).
    expect(scene.bounds.min.map((v) => +v.toFixed(9))).toEqual([8, 0, 0]);
    expect(scene.bounds.max.map((v) => +v.toFixed(9))).toEqual([10, 2, 0]);
  });

  it('orient, transform, !invert! and !resetXformStack!', async () => {
    const scene = await sceneOf(
      `def Xform "P" {\n double3 xformOp:translate = (100, 0, 0)\n uniform ` +
        `token[] xformOpOrder = ["xformOp:translate"]\n def Xform "X" {\n quatf ` +
        `xformOp:orient = (0.7071068, 0, 0.7071068, 0)\n double3 xformOp:translate:shift ` +
        `= (0, 5, 0)\n uniform token[] xformOpOrder = ["!resetXformStack!", ` +
        `"!invert!xformOp:translate:shift", "xformOp:orient"]\n def Mesh "M" ` +
        `{\n ${QUAD}\n }\n }\n def Xform "T" {\n matrix4d xformOp:transform ` +
        `= ((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,7,1))\n uniform token[] xformOpOrder ` +
        `= ["xformOp:transform"]\n def Mesh "N" {\n ${QUAD}\n }\n }\n}`,
    );
    const [m, n] = [0, 1].map((i) => scene.nodes.findIndex((node) => node.meshes.includes(i)));
    const { worldMatrices } = await import('../src/index.js');
    const world = worldMatrices(scene.nodes);
    const apply = (w: Float64Array, p: number[]) =>
      [0, 1, 2].map((r) => w[r]! * p[0]! + w[4 + r]! * p[1]! + w[8 + r]! * p[2]! + w[12 + r]!);
    // Reset: P's translation does not apply. (1,0,0) turned 90° about y → (0,0,−1), then moved by −shift.
    expect(apply(world[m!]!, [1, 0, 0]).map((v) => +v.toFixed(5))).toEqual([0, -5, -1]);
    // The row-major transform moves by (0, 0, 7), under P's (100, 0, 0).
    expect(apply(world[n!]!, [0, 0, 0]).map((v) => +v.toFixed(9))).toEqual([100, 0, 7]);
  });

  it('a Z-up stage in centimetres is turned to Y-up metres', async () => {
    const scene = await readUsdz(
      usdzOf({
        'z.usda':
          `#usda 1.0\n(\n upAxis = "Z"\n metersPerUnit = 0.01\n)\ndef Mesh "M" {\n point3f[] points = ` +
          `[(0,0,0),(100,0,0),(0,0,200)]\n int[] faceVertexCounts = [3]\n int[] faceVertexIndices = [0,1,2]\n}`,
      }),
    );
    expect(scene.bounds.max.map((v) => +v.toFixed(9))).toEqual([1, 2, 0]);
  });

  it('invisible, guide and proxy prims, classes and overs are not drawn; curves and points are dropped with a warning', async () => {
    const mesh = (name: string, extra = '') => `def Mesh "${name}" (\n) {\n ${QUAD}\n ${extra}\n}`;
    const scene = await sceneOf(
      [
        mesh('Shown'),
        mesh('Hidden', 'token visibility = "invisible"'),
        mesh('Guide', 'uniform token purpose = "guide"'),
        `class "C" { ${mesh('InClass')} }`,
        `over "O" { ${mesh('InOver')} }`,
        'def BasisCurves "Hair" {}',
        'def Points "Dust" {}',
      ].join('\n'),
    );
    expect(scene.nodes.filter((n) => n.meshes.length).map((n) => n.name)).toEqual(['Shown']);
    expect(scene.warnings.find((w) => w.code === 'prims_dropped')?.message).toMatch(/1 BasisCurves, 1 Points/);
  });

  it('a mirroring scale is baked into world space with the faces turned, so they stay outward', async () => {
    const scene = await sceneOf(
      `def Xform "X" {\n double3 xformOp:scale = (1, 1, -1)\n uniform token[] xformOpOrder = ["xformOp:scale"]\n def Cube "C" {}\n}`,
    );
    expect(scene.warnings.map((w) => w.code)).toContain('mirrored_node_baked');
    const { positions, indices } = sceneTriangles(scene);
    const normals = faceNormals(scene);
    normals.forEach((n, t) => {
      const centre = [0, 1, 2].map(
        (k) =>
          (positions[3 * indices[3 * t]! + k]! + positions[3 * indices[3 * t + 1]! + k]! + positions[3 * indices[3 * t + 2]! + k]!) / 3,
      );
      expect(n[0]! * centre[0]! + n[1]! * centre[1]! + n[2]! * centre[2]!).toBeGreaterThan(0);
    });
  });
});

describe('implicit shapes in a stage', () => {
  const across = Math.sin((2 * Math.PI) / 5);

  it("Pixar's fixture shapes at USD's fallback sizes: clean_arkit spans 2 cm in centimetres", async () => {
    // Capsule, Cone, Cylinder and Sphere with no authored size, axis Z: each spans [−1, 1] along Z and
    // along X (its ring's first axis), and [−sin 72°, sin 72°] along Y.
    const scene = await sceneOf(
      'def Xform "S" {\n double3 xformOp:scale = (0.01, 0.01, 0.01)\n uniform token[] xformOpOrder = ' +
        '["xformOp:scale"]\n def Capsule "a" {}\n def Cone "b" {}\n def Cylinder "c" {}\n def Sphere "d" {}\n}',
    );
    const y = +(0.01 * across).toFixed(6);
    expect(scene.bounds.min.map((v) => +v.toFixed(6))).toEqual([-0.01, -y, -0.01]);
    expect(scene.bounds.max.map((v) => +v.toFixed(6))).toEqual([0.01, y, 0.01]);
    expect(scene.stats.triangles).toBe(
      tessellateCapsule(0.5, 1, 'Z').indices.length / 3 +
        tessellateCylinder(1, 0, 2, 'Z').indices.length / 3 +
        tessellateCylinder(1, 1, 2, 'Z').indices.length / 3 +
        tessellateSphere(1).indices.length / 3,
    );
  });
});

describe('point instancers and subsets', () => {
  it('a PointInstancer becomes a node per instance holding its prototype, sharing one mesh', async () => {
    const scene = await sceneOf(
      `def PointInstancer "PI" {\n rel prototypes = [</PI/Protos/Box>]\n int[] protoIndices = ` +
        `[0, 0, 0]\n point3f[] positions = [(0,0,0), (10,0,0), (20,0,0)]\n quath[] orientations ` +
        `= [(1,0,0,0), (1,0,0,0), (1,0,0,0)]\n float3[] scales = [(1,1,1), (1,1,1), (2,2,2)]\n ` +
        `int64[] invisibleIds = [1]\n def Scope "Protos" {\n def Cube "Box" {}\n }\n}`,
    );
    expect(scene.meshes).toHaveLength(1);
    expect(scene.nodes.filter((n) => n.meshes.length).length).toBe(2); // instance 1 is invisible
    expect(scene.bounds.max[0]).toBeCloseTo(22, 9);
    expect(scene.warnings.map((w) => w.code)).toContain('instances_expanded');
  });

  it('materialBind GeomSubsets split a mesh by material', async () => {
    const scene = await sceneOf(
      `def Mesh "M" (\n prepend apiSchemas = ["MaterialBindingAPI"]\n) {\n ` +
        `point3f[] points = [(0,0,0),(1,0,0),(1,1,0),(0,1,0),(2,0,0),(2,1,0)]\n ` +
        `int[] faceVertexCounts = [4, 4]\n int[] faceVertexIndices = [0,1,2,3, 1,4,5,2]\n rel material:binding = ` +
        `</Looks/Grey>\n def GeomSubset "Red" (\n prepend apiSchemas = ["MaterialBindingAPI"]\n ) {\n uniform token elementType = ` +
        `"face"\n uniform token familyName = "materialBind"\n int[] indices = [1]\n rel material:binding = </Looks/Red>\n }\n}\ndef ` +
        `Scope "Looks" {\n def Material "Grey" {\n token outputs:surface.connect = </Looks/Grey/S.outputs:surface>\n def Shader "S" ` +
        `{\n uniform token info:id = "UsdPreviewSurface"\n color3f inputs:diffuseColor = (0.5, 0.5, 0.5)\n token outputs:surface\n ` +
        `}\n }\n def Material "Red" {\n token outputs:surface.connect = </Looks/Red/S.outputs:surface>\n def Shader "S" {\n ` +
        `uniform token info:id = "UsdPreviewSurface"\n color3f inputs:diffuseColor = (1, 0, 0)\n token outputs:surface\n }\n }\n}`,
    );
    const byName = new Map(scene.meshes.map((m) => [scene.materials[m.material]!.name, m.indices.length / 3]));
    expect(Object.fromEntries(byName)).toEqual({ Grey: 2, Red: 2 });
    expect(scene.materials.find((m) => m.name === 'Red')!.baseColor).toEqual([1, 0, 0]);
  });
});
