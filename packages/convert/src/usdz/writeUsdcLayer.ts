import type { SceneData } from '../scene/SceneData.js';
import { describeLayer, DESCRIBE_LAYER_DEFAULTS, type DescribeLayerOptions } from './layer/describeLayer.js';
import {
  CRATE_TYPE,
  CrateWriter,
  SPEC_TYPE,
  type UsdLayer,
  type UsdPrim,
  type UsdProperty,
  type UsdValue,
  type UsdVariantSet,
  type ValueRep,
} from '@arsession/usd';

/** Options of {@link writeUsdcLayer}. */
export type WriteUsdcLayerOptions = DescribeLayerOptions;

/** Defaults of {@link writeUsdcLayer}. */
export const WRITE_USDC_LAYER_DEFAULTS: Readonly<WriteUsdcLayerOptions> = DESCRIBE_LAYER_DEFAULTS;

/**
 * Writes a scene as one binary USD layer (a crate file, version 0.8.0): {@link describeLayer}'s
 * layer, the form ARKit and USD load fastest. Points and normals go out as the scene's own bytes
 * (texture coordinates as their v-flipped copy), so writing costs little more than the copy into
 * the package. Returns
 * the file as parts in order; they reference the scene's arrays.
 *
 * @example
 * ```ts
 * const layer = Buffer.concat(writeUsdcLayer(scene)); // starts with "PXR-USDC"
 * ```
 */
export function writeUsdcLayer(scene: SceneData, options: Partial<WriteUsdcLayerOptions> = {}): Uint8Array[] {
  return renderUsdc(describeLayer(scene, options));
}

/** Renders a {@link UsdLayer} as a crate file. */
export function renderUsdc(layer: UsdLayer): Uint8Array[] {
  const crate = new CrateWriter();
  const root = crate.rootPath();
  crate.addSpec(root, SPEC_TYPE.PseudoRoot, [
    ['customLayerData', crate.dictionary(Object.entries(layer.customLayerData).map(([k, v]) => [k, () => crate.string(v)] as const))],
    ['defaultPrim', crate.token(layer.root.name)],
    ['metersPerUnit', crate.double(layer.metersPerUnit)],
    ['upAxis', crate.token(layer.upAxis)],
    ['primChildren', crate.tokenVector([layer.root.name])],
  ]);
  // Depth first with an explicit stack: node trees can be deep.
  const stack: Array<{ prim: UsdPrim; path: number }> = [{ prim: layer.root, path: crate.childPath(root, layer.root.name) }];
  while (stack.length) {
    const { prim, path } = stack.pop()!;
    // Children's paths first, in order: properties below may point into them (connections), and
    // the path tree should list children as primChildren does.
    const childPaths = prim.children.map((c) => crate.childPath(path, c.name));
    crate.addSpec(path, SPEC_TYPE.Prim, primFields(crate, prim));
    for (const p of prim.properties) property(crate, crate.childPath(path, p.name, true), p);
    for (const set of prim.variantSets ?? []) stack.push(...variantSet(crate, path, set));
    for (let i = prim.children.length - 1; i >= 0; i--) stack.push({ prim: prim.children[i]!, path: childPaths[i]! });
  }
  return crate.finish();
}

function primFields(crate: CrateWriter, prim: UsdPrim): Array<readonly [string, ValueRep]> {
  const fields: Array<readonly [string, ValueRep]> = [['specifier', crate.specifier(prim.specifier ?? 'def')]];
  if (prim.typeName) fields.push(['typeName', crate.token(prim.typeName)]);
  if (prim.active !== undefined) fields.push(['active', crate.bool(prim.active)]);
  if (prim.kind !== undefined) fields.push(['kind', crate.token(prim.kind)]);
  if (prim.instanceable !== undefined) fields.push(['instanceable', crate.bool(prim.instanceable)]);
  if (prim.references) fields.push(['references', crate.referenceListOpPrepend(prim.references)]);
  if (prim.apiSchemas) fields.push(['apiSchemas', crate.tokenListOpPrepend(prim.apiSchemas)]);
  if (prim.customData)
    fields.push(['customData', crate.dictionary(Object.entries(prim.customData).map(([k, v]) => [k, () => value(crate, v)] as const))]);
  if (prim.variantSets?.length) {
    const names = prim.variantSets.map((v) => v.name);
    fields.push(['variantSelection', crate.variantSelection(new Map(prim.variantSets.map((v) => [v.name, v.selection])))]);
    fields.push(['variantSetNames', crate.stringListOpPrepend(names)]);
    fields.push(['variantSetChildren', crate.tokenVector(names)]);
  }
  if (prim.children.length) fields.push(['primChildren', crate.tokenVector(prim.children.map((c) => c.name))]);
  if (prim.properties.length) fields.push(['properties', crate.tokenVector(prim.properties.map((p) => p.name))]);
  return fields;
}

/**
 * A variant set's spec (`/Model{storey=}`) and each variant's (`/Model{storey=Level_1}`), as USD
 * stores them; returns the prims inside the variants, to be written like any other.
 */
function variantSet(crate: CrateWriter, owner: number, set: UsdVariantSet): Array<{ prim: UsdPrim; path: number }> {
  crate.addSpec(crate.childPath(owner, `{${set.name}=}`), SPEC_TYPE.VariantSet, [
    ['variantChildren', crate.tokenVector(set.variants.map((v) => v.name))],
  ]);
  const inside: Array<{ prim: UsdPrim; path: number }> = [];
  for (const variant of set.variants) {
    const path = crate.childPath(owner, `{${set.name}=${variant.name}}`);
    const fields: Array<readonly [string, ValueRep]> = [['specifier', crate.specifier('over')]];
    if (variant.children.length) fields.push(['primChildren', crate.tokenVector(variant.children.map((c) => c.name))]);
    crate.addSpec(path, SPEC_TYPE.Variant, fields);
    for (const prim of variant.children) inside.push({ prim, path: crate.childPath(path, prim.name) });
  }
  return inside;
}

function property(crate: CrateWriter, path: number, p: UsdProperty): void {
  if (p.kind === 'relationship') {
    // Relationships are uniform, as USD's text reader makes every `rel`.
    crate.addSpec(path, SPEC_TYPE.Relationship, [
      ['variability', crate.variability(true)],
      ['targetPaths', crate.pathListOpExplicit([p.target])],
    ]);
    return;
  }
  const fields: Array<readonly [string, ValueRep]> = [
    ['typeName', crate.token(p.type)],
    ['variability', crate.variability(p.uniform === true)],
  ];
  if (p.value) fields.push(['default', value(crate, p.value)]);
  if (p.connect !== undefined) fields.push(['connectionPaths', crate.pathListOpExplicit([p.connect])]);
  if (p.interpolation !== undefined) fields.push(['interpolation', crate.token(p.interpolation)]);
  crate.addSpec(path, SPEC_TYPE.Attribute, fields);
}

function value(crate: CrateWriter, v: UsdValue): ValueRep {
  switch (v.type) {
    case 'bool':
      return crate.bool(v.value);
    case 'int':
      return crate.int(v.value);
    case 'float':
      return crate.float(v.value);
    case 'double':
      return crate.double(v.value);
    case 'token':
      return crate.token(v.value);
    case 'string':
      return crate.string(v.value);
    case 'asset':
      return crate.assetPath(v.value);
    case 'float2':
      return crate.vecf(CRATE_TYPE.Vec2f, v.value);
    case 'float3':
    case 'color3f':
    case 'normal3f':
      return crate.vecf(CRATE_TYPE.Vec3f, v.value);
    case 'float4':
      return crate.vecf(CRATE_TYPE.Vec4f, v.value);
    case 'matrix4d':
      return crate.matrix4d(v.value);
    case 'token[]':
      return crate.textArray(CRATE_TYPE.Token, v.value);
    case 'string[]':
      return crate.textArray(CRATE_TYPE.String, v.value);
    case 'int[]':
      return crate.intArray(v.value);
    case 'float3[]':
    case 'point3f[]':
    case 'normal3f[]':
      return crate.vecfArray(CRATE_TYPE.Vec3f, v.value);
    case 'texCoord2f[]':
      return crate.vecfArray(CRATE_TYPE.Vec2f, v.value);
  }
}
