import type { SceneData } from '../scene/SceneData.js';
import { describeLayer, DESCRIBE_LAYER_DEFAULTS, type DescribeLayerOptions } from './layer/describeLayer.js';
import {
  AsciiWriter,
  USDA_DECIMALS,
  formatFloat64,
  intArray,
  quote,
  tupleArray,
  type UsdLayer,
  type UsdPrim,
  type UsdProperty,
  type UsdValue,
  type UsdVariantSet,
} from '@arsession/usd';

/** Options of {@link writeUsdaLayer}. */
export type WriteUsdaLayerOptions = DescribeLayerOptions;

/** Defaults of {@link writeUsdaLayer}. */
export const WRITE_USDA_LAYER_DEFAULTS: Readonly<WriteUsdaLayerOptions> = DESCRIBE_LAYER_DEFAULTS;

/**
 * Writes a scene as one USDA (text) layer: {@link describeLayer}'s layer, rendered. Yields UTF-8
 * bytes in chunks (a prim at a time) so callers can stream big models; numbers are written
 * straight into bytes ({@link AsciiWriter}), never through strings. Packages carry the binary
 * form ({@link writeUsdcLayer}); this one is for reading and diffing.
 *
 * @example
 * ```ts
 * const text = Buffer.concat([...writeUsdaLayer(scene)]).toString('utf8');
 * ```
 */
export function* writeUsdaLayer(scene: SceneData, options: Partial<WriteUsdaLayerOptions> = {}): Generator<Uint8Array> {
  yield* renderUsda(describeLayer(scene, options));
}

/** Renders a {@link UsdLayer} as USDA text, a prim at a time. */
export function* renderUsda(layer: UsdLayer): Generator<Uint8Array> {
  const w = new AsciiWriter();
  w.text('#usda 1.0\n(\n    customLayerData = {\n');
  for (const [k, v] of Object.entries(layer.customLayerData)) w.text(`        string ${k} = ${quote(v)}\n`);
  w.text(
    `    }\n    defaultPrim = ${quote(layer.root.name)}\n    metersPerUnit = ` +
      `${formatFloat64(layer.metersPerUnit)}\n    upAxis = ${quote(layer.upAxis)}\n)\n\n`,
  );
  // Depth first with an explicit stack: node trees can be deep.
  const stack: Array<{ prim: UsdPrim; depth: number } | { close: number }> = [{ prim: layer.root, depth: 0 }];
  while (stack.length) {
    const frame = stack.pop()!;
    if ('close' in frame) {
      w.text(`${'    '.repeat(frame.close)}}\n`);
      yield w.take();
      continue;
    }
    primOpen(w, frame.prim, frame.depth);
    stack.push({ close: frame.depth });
    for (let i = frame.prim.children.length - 1; i >= 0; i--) stack.push({ prim: frame.prim.children[i]!, depth: frame.depth + 1 });
  }
}

function primOpen(w: AsciiWriter, prim: UsdPrim, depth: number): void {
  const indent = '    '.repeat(depth),
    i2 = `${indent}    `;
  w.text(`${indent}${prim.specifier ?? 'def'} ${prim.typeName ? `${prim.typeName} ` : ''}${quote(prim.name)}`);
  const sets = prim.variantSets?.length ? prim.variantSets : undefined;
  const metadata = prim.kind !== undefined || prim.instanceable !== undefined || prim.active !== undefined;
  if (metadata || prim.apiSchemas || prim.customData || prim.references || sets) {
    w.text(' (\n');
    if (prim.active !== undefined) w.text(`${i2}active = ${prim.active}\n`);
    if (prim.kind !== undefined) w.text(`${i2}kind = ${quote(prim.kind)}\n`);
    if (prim.instanceable !== undefined) w.text(`${i2}instanceable = ${prim.instanceable}\n`);
    if (prim.references) w.text(`${i2}prepend references = [${prim.references.map((r) => `<${r}>`).join(', ')}]\n`);
    if (prim.apiSchemas) w.text(`${i2}prepend apiSchemas = [${prim.apiSchemas.map(quote).join(', ')}]\n`);
    if (prim.customData) {
      w.text(`${i2}customData = {\n`);
      for (const [k, v] of Object.entries(prim.customData)) {
        w.text(`${i2}    ${v.type} ${k} = `);
        value(w, v);
        w.char(10);
      }
      w.text(`${i2}}\n`);
    }
    if (sets) {
      w.text(`${i2}variants = {\n`);
      for (const set of sets) w.text(`${i2}    string ${set.name} = ${quote(set.selection)}\n`);
      w.text(`${i2}}\n${i2}prepend variantSets = [${sets.map((set) => quote(set.name)).join(', ')}]\n`);
    }
    w.text(`${indent})`);
  }
  w.text(`\n${indent}{\n`);
  for (const p of prim.properties) property(w, p, i2);
  for (const set of sets ?? []) variantSet(w, set, depth + 1);
}

/** `variantSet "name" = { "variant" { prims } … }`; what variants hold is shallow, so plain recursion. */
function variantSet(w: AsciiWriter, set: UsdVariantSet, depth: number): void {
  const indent = '    '.repeat(depth);
  w.text(`${indent}variantSet ${quote(set.name)} = {\n`);
  for (const variant of set.variants) {
    w.text(`${indent}    ${quote(variant.name)} {\n`);
    for (const prim of variant.children) primSubtree(w, prim, depth + 2);
    w.text(`${indent}    }\n`);
  }
  w.text(`${indent}}\n`);
}

function primSubtree(w: AsciiWriter, prim: UsdPrim, depth: number): void {
  primOpen(w, prim, depth);
  for (const child of prim.children) primSubtree(w, child, depth + 1);
  w.text(`${'    '.repeat(depth)}}\n`);
}

function property(w: AsciiWriter, p: UsdProperty, indent: string): void {
  if (p.kind === 'relationship') {
    w.text(`${indent}rel ${p.name} = <${p.target}>\n`);
    return;
  }
  w.text(`${indent}${p.uniform ? 'uniform ' : ''}${p.type} ${p.name}`);
  if (p.connect !== undefined) w.text(`.connect = <${p.connect}>`);
  else if (p.value) {
    w.text(' = ');
    value(w, p.value);
  }
  if (p.interpolation !== undefined) w.text(` (\n${indent}    interpolation = ${quote(p.interpolation)}\n${indent})`);
  w.char(10);
}

function value(w: AsciiWriter, v: UsdValue): void {
  switch (v.type) {
    case 'bool':
      w.char(v.value ? 49 : 48);
      return;
    case 'int':
    case 'float':
    case 'double':
      w.text(formatFloat64(v.value));
      return;
    case 'token':
    case 'string':
      w.text(quote(v.value));
      return;
    case 'asset':
      w.text(`@${v.value}@`);
      return;
    case 'float2':
    case 'float3':
    case 'float4':
    case 'color3f':
    case 'normal3f':
      w.text(`(${v.value.map(formatFloat64).join(', ')})`);
      return;
    case 'matrix4d': {
      const rows = [0, 1, 2, 3].map((r) => `(${[0, 1, 2, 3].map((c) => formatFloat64(v.value[r * 4 + c]!)).join(', ')})`);
      w.text(`( ${rows.join(', ')} )`);
      return;
    }
    case 'token[]':
    case 'string[]':
      w.text(`[${v.value.map(quote).join(', ')}]`);
      return;
    case 'int[]':
      intArray(w, v.value);
      return;
    case 'float3[]':
    case 'point3f[]':
      tupleArray(w, v.value, 3, USDA_DECIMALS.position);
      return;
    case 'normal3f[]':
      tupleArray(w, v.value, 3, USDA_DECIMALS.normal);
      return;
    case 'texCoord2f[]':
      tupleArray(w, v.value, 2, USDA_DECIMALS.uv);
      return;
  }
}
