import type { SceneData, SceneMaterial, SceneMesh, SceneNode, TextureRef } from '../scene/SceneData.js';
import { AsciiWriter } from './AsciiWriter.js';
import { formatFixed, formatFloat64, intArray, primName, quote, tupleArray, USDA_DECIMALS } from './usdaText.js';
import { emptyBounds, growBounds, IDENTITY_MATRIX } from '../scene/growBounds.js';

/** Options of {@link writeUsdaLayer}. */
export interface WriteUsdaLayerOptions {
  /** Name of the default prim that holds everything. */
  rootName: string;
}

/** Defaults of {@link writeUsdaLayer}. */
export const WRITE_USDA_LAYER_DEFAULTS: Readonly<WriteUsdaLayerOptions> = { rootName: 'Model' };

/** Package path of texture `i`: the layer refers to it by this name, and the package stores it there. */
export function textureEntryName(scene: SceneData, i: number): string {
  return `textures/texture_${i}.${scene.textures[i]!.mimeType === 'image/png' ? 'png' : 'jpg'}`;
}

/**
 * Writes a scene as one USDA layer for ARKit: `upAxis = "Y"`, `metersPerUnit = 1`, a default prim
 * holding the transform tree and a `Materials` scope, UsdPreviewSurface materials bound with
 * `MaterialBindingAPI`, `extent` on every mesh, one Mesh prim per drawn mesh (no PointInstancer).
 * Yields UTF-8 bytes in chunks (a mesh at a time) so callers can stream big models; numbers are
 * written straight into bytes ({@link AsciiWriter}), never through strings.
 *
 * @example
 * ```ts
 * const text = Buffer.concat([...writeUsdaLayer(scene)]).toString('utf8');
 * ```
 */
export function* writeUsdaLayer(scene: SceneData, options: Partial<WriteUsdaLayerOptions> = {}): Generator<Uint8Array> {
  const opts = { ...WRITE_USDA_LAYER_DEFAULTS, ...options };
  const writer = new AsciiWriter();
  const bytes = (text: string) => writer.text(text).take();
  const root = `/${opts.rootName}`;
  yield bytes([
    '#usda 1.0',
    '(',
    `    customLayerData = {`,
    `        string creator = "arsession"`,
    `    }`,
    `    defaultPrim = ${quote(opts.rootName)}`,
    '    metersPerUnit = 1',
    '    upAxis = "Y"',
    ')',
    '',
    `def Xform ${quote(opts.rootName)} (`,
    '    kind = "component"',
    ')',
    '{',
    '',
  ].join('\n'));

  const materialNames = new Set<string>();
  const materialPaths = scene.materials.map((m, i) => `${root}/Materials/${primName(m.name, materialNames, `material_${i}`)}`);
  yield bytes('    def Scope "Materials"\n    {\n');
  for (let i = 0; i < scene.materials.length; i++) {
    yield bytes(materialText(scene.materials[i]!, materialPaths[i]!, scene));
  }
  yield bytes('    }\n');

  // Children lists, then a depth-first walk with an explicit stack (glTF trees can be deep).
  const children: number[][] = scene.nodes.map(() => []);
  const roots: number[] = [];
  scene.nodes.forEach((n, i) => (n.parent < 0 ? roots : children[n.parent]!).push(i));
  // One name set per parent prim: its mesh prims and its child Xforms must not collide.
  const siblingNames = new Map<number, Set<string>>();
  const namesUnder = (parent: number) => {
    let taken = siblingNames.get(parent);
    if (!taken) siblingNames.set(parent, (taken = new Set(['Materials'])));
    return taken;
  };
  const nameOf = (parent: number, node: SceneNode, i: number) => primName(node.name, namesUnder(parent), `node_${i}`);
  type Frame = { node: number; depth: number; close: boolean };
  const stack: Frame[] = roots.slice().reverse().map((node) => ({ node, depth: 1, close: false }));
  const names = new Map<number, string>();
  while (stack.length) {
    const frame = stack.pop()!;
    const indent = '    '.repeat(frame.depth);
    if (frame.close) {
      yield bytes(`${indent}}\n`);
      continue;
    }
    const node = scene.nodes[frame.node]!;
    const name = nameOf(node.parent, node, frame.node);
    names.set(frame.node, name);
    yield bytes(xformOpen(node, name, indent));
    const meshNames = namesUnder(frame.node);
    for (const m of node.meshes) {
      meshText(writer, scene.meshes[m]!, primName(scene.meshes[m]!.name, meshNames, `mesh_${m}`), materialPaths[scene.meshes[m]!.material]!, scene.materials[scene.meshes[m]!.material]!, `${indent}    `);
      yield writer.take();
    }
    stack.push({ node: frame.node, depth: frame.depth, close: true });
    for (const c of children[frame.node]!.slice().reverse()) stack.push({ node: c, depth: frame.depth + 1, close: false });
  }
  yield bytes('}\n');
}

function xformOpen(node: SceneNode, name: string, indent: string): string {
  const meta = Object.entries(node.metadata);
  const lines = [`${indent}def Xform ${quote(name)}`];
  if (meta.length) {
    lines.push(`${indent}(`, `${indent}    customData = {`);
    for (const [k, v] of meta.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) lines.push(`${indent}        string ${identifier(k)} = ${quote(v)}`);
    lines.push(`${indent}    }`, `${indent})`);
  }
  lines.push(`${indent}{`);
  if (!isIdentity(node.matrix)) {
    // USD matrices are row-major with row vectors, so our column-major columns are its rows.
    const rows = [0, 1, 2, 3].map((r) => `(${[0, 1, 2, 3].map((c) => formatFloat64(node.matrix[r * 4 + c]!)).join(', ')})`);
    lines.push(`${indent}    matrix4d xformOp:transform = ( ${rows.join(', ')} )`);
    lines.push(`${indent}    uniform token[] xformOpOrder = ["xformOp:transform"]`);
  }
  return `${lines.join('\n')}\n`;
}

function meshText(w: AsciiWriter, mesh: SceneMesh, name: string, materialPath: string, material: SceneMaterial, indent: string): void {
  const i2 = `${indent}    `;
  const triangles = mesh.indices.length / 3;
  w.text(`${indent}def Mesh ${quote(name)} (\n${i2}prepend apiSchemas = ["MaterialBindingAPI"]\n`);
  if (mesh.elements?.length) {
    // Element identity of merged geometry: parallel arrays, one entry per element's triangle run.
    const e = mesh.elements;
    const strings = (key: string) => `[${e.map((x) => quote(x.metadata[key] ?? '')).join(', ')}]`;
    w.text(`${i2}customData = {\n`)
      .text(`${i2}    string[] elementClasses = ${strings('ifcClass')}\n`)
      .text(`${i2}    int[] elementFirstTriangles = `);
    intArray(w, e.map((x) => x.firstTriangle));
    w.text(`\n${i2}    string[] elementGlobalIds = ${strings('globalId')}\n`)
      .text(`${i2}    string[] elementNames = ${strings('name')}\n`)
      .text(`${i2}    int[] elementTriangleCounts = `);
    intArray(w, e.map((x) => x.triangleCount));
    w.text(`\n${i2}}\n`);
  }
  w.text(`${indent})\n${indent}{\n`);
  w.text(`${i2}uniform bool doubleSided = ${material.doubleSided ? 1 : 0}\n`);
  w.text(`${i2}float3[] extent = ${extent(mesh.positions)}\n`);
  w.text(`${i2}int[] faceVertexCounts = ${repeatedThrees(triangles)}\n`);
  w.text(`${i2}int[] faceVertexIndices = `);
  intArray(w, mesh.indices);
  w.text(`\n${i2}rel material:binding = <${materialPath}>\n`);
  if (mesh.normals) {
    w.text(`${i2}normal3f[] normals = `);
    tupleArray(w, mesh.normals, 3, USDA_DECIMALS.normal);
    w.text(` (\n${i2}    interpolation = "vertex"\n${i2})\n`);
  }
  w.text(`${i2}point3f[] points = `);
  tupleArray(w, mesh.positions, 3, USDA_DECIMALS.position);
  w.char(10);
  if (mesh.uvs) {
    w.text(`${i2}texCoord2f[] primvars:st = `);
    tupleArray(w, flipV(mesh.uvs), 2, USDA_DECIMALS.uv);
    w.text(` (\n${i2}    interpolation = "vertex"\n${i2})\n`);
  }
  w.text(`${i2}uniform token subdivisionScheme = "none"\n${indent}}\n`);
}

function materialText(m: SceneMaterial, path: string, scene: SceneData): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const I = '        ', I2 = '            ', I3 = '                ';
  const surface = `${path}/PreviewSurface`;
  const inputs: string[] = [];
  const shaders: string[] = [];
  const uvReader = `${path}/TexCoordReader`;
  let usesUv = false;
  const texture = (id: string, ref: TextureRef, colorSpace: 'sRGB' | 'raw', scale: readonly number[], bias?: readonly number[]) => {
    usesUv = true;
    const tex = ref.texture;
    const [wrapS, wrapT] = ref.wrap ?? ['repeat', 'repeat'];
    const file = textureEntryName(scene, tex);
    shaders.push([
      `${I2}def Shader ${quote(id)}`,
      `${I2}{`,
      `${I3}uniform token info:id = "UsdUVTexture"`,
      `${I3}asset inputs:file = @${file}@`,
      `${I3}float2 inputs:st.connect = <${uvReader}.outputs:result>`,
      `${I3}token inputs:sourceColorSpace = "${colorSpace}"`,
      `${I3}float4 inputs:scale = (${scale.map(formatFloat64).join(', ')})`,
      ...(bias ? [`${I3}float4 inputs:bias = (${bias.map(formatFloat64).join(', ')})`] : []),
      `${I3}token inputs:wrapS = "${wrapS}"`,
      `${I3}token inputs:wrapT = "${wrapT}"`,
      `${I3}float3 outputs:rgb`,
      `${I3}float outputs:a`,
      `${I3}float outputs:r`,
      `${I3}float outputs:g`,
      `${I3}float outputs:b`,
      `${I2}}`,
    ].join('\n'));
    return `${path}/${id}`;
  };
  const c3 = (c: readonly number[]) => `(${c.map(formatFloat64).join(', ')})`;

  if (m.baseColorTexture) {
    const t = texture('BaseColorTexture', m.baseColorTexture, 'sRGB', [...m.baseColor, m.opacity]);
    inputs.push(`${I3}color3f inputs:diffuseColor.connect = <${t}.outputs:rgb>`);
    if (m.opacity < 1 || m.alphaBlend || m.alphaCutoff !== undefined) inputs.push(`${I3}float inputs:opacity.connect = <${t}.outputs:a>`);
  } else {
    inputs.push(`${I3}color3f inputs:diffuseColor = ${c3(m.baseColor)}`);
    inputs.push(`${I3}float inputs:opacity = ${formatFloat64(m.opacity)}`);
  }
  if (m.alphaCutoff !== undefined) inputs.push(`${I3}float inputs:opacityThreshold = ${formatFloat64(m.alphaCutoff)}`);
  if (m.metallicRoughnessTexture) {
    const t = texture('MetallicRoughnessTexture', m.metallicRoughnessTexture, 'raw', [1, m.roughness, m.metallic, 1]);
    inputs.push(`${I3}float inputs:metallic.connect = <${t}.outputs:b>`, `${I3}float inputs:roughness.connect = <${t}.outputs:g>`);
  } else {
    inputs.push(`${I3}float inputs:metallic = ${formatFloat64(m.metallic)}`, `${I3}float inputs:roughness = ${formatFloat64(m.roughness)}`);
  }
  if (m.emissiveTexture) {
    const t = texture('EmissiveTexture', m.emissiveTexture, 'sRGB', [...m.emissive, 1]);
    inputs.push(`${I3}color3f inputs:emissiveColor.connect = <${t}.outputs:rgb>`);
  } else if (m.emissive.some((v) => v > 0)) {
    inputs.push(`${I3}color3f inputs:emissiveColor = ${c3(m.emissive)}`);
  }
  if (m.normalTexture) {
    // Tangent-space normals are stored as colour in [0, 1]: map to [−1, 1] in raw colour space,
    // with glTF's normal scale applied to x and y.
    const s = m.normalTexture.scale;
    const t = texture('NormalTexture', m.normalTexture, 'raw', [2 * s, 2 * s, 2, 1], [-s, -s, -1, 0]);
    inputs.push(`${I3}normal3f inputs:normal.connect = <${t}.outputs:rgb>`);
  }
  if (m.occlusionTexture) {
    const t = texture('OcclusionTexture', m.occlusionTexture, 'raw', [1, 1, 1, 1]);
    inputs.push(`${I3}float inputs:occlusion.connect = <${t}.outputs:r>`);
  }
  inputs.push(`${I3}int inputs:useSpecularWorkflow = 0`);

  const lines = [
    `${I}def Material ${quote(name)}`,
    `${I}{`,
    `${I2}token outputs:surface.connect = <${surface}.outputs:surface>`,
    '',
    `${I2}def Shader "PreviewSurface"`,
    `${I2}{`,
    `${I3}uniform token info:id = "UsdPreviewSurface"`,
    ...inputs,
    `${I3}token outputs:surface`,
    `${I2}}`,
  ];
  if (usesUv) {
    lines.push(
      '',
      `${I2}def Shader "TexCoordReader"`,
      `${I2}{`,
      `${I3}uniform token info:id = "UsdPrimvarReader_float2"`,
      `${I3}token inputs:varname = "st"`,
      `${I3}float2 outputs:result`,
      `${I2}}`,
    );
  }
  for (const s of shaders) lines.push('', s);
  lines.push(`${I}}`, '');
  return `${lines.join('\n')}\n`;
}

function extent(p: Float32Array): string {
  const { min, max } = growBounds(emptyBounds(), p, 3, IDENTITY_MATRIX);
  const f = (v: number) => formatFixed(v, USDA_DECIMALS.position);
  return `[(${f(min[0])}, ${f(min[1])}, ${f(min[2])}), (${f(max[0])}, ${f(max[1])}, ${f(max[2])})]`;
}

function repeatedThrees(n: number): string {
  return n === 0 ? '[]' : `[${'3, '.repeat(n - 1)}3]`;
}

function flipV(uvs: Float32Array): Float32Array {
  // glTF puts v = 0 at the top of an image, USD at the bottom.
  const out = new Float32Array(uvs.length);
  for (let i = 0; i < uvs.length; i += 2) {
    out[i] = uvs[i]!;
    out[i + 1] = 1 - uvs[i + 1]!;
  }
  return out;
}

function isIdentity(m: Float64Array): boolean {
  return m.every((v, i) => v === (i % 5 === 0 ? 1 : 0));
}

function identifier(key: string): string {
  const s = key.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[0-9]/.test(s) ? `_${s}` : s || '_';
}
