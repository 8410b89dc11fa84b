import type { CheckedUsdzPackage } from './checkUsdzPackage.js';
import type { UsdStage } from '../stage/UsdStage.js';

/** A rule of Pixar's `usdchecker --arkit` that a package breaks, with what breaks it. */
export interface BrokenRule {
  rule: string;
  message: string;
}

// What `usdchecker --arkit` allows (OpenUSD's complianceChecker.py, ARKit rules).
const PRIM_TYPES = new Set([
  '',
  'Scope',
  'Xform',
  'Camera',
  'Shader',
  'Material',
  'Mesh',
  'Sphere',
  'Cube',
  'Cylinder',
  'Cone',
  'Capsule',
  'GeomSubset',
  'Points',
  'SkelRoot',
  'Skeleton',
  'SkelAnimation',
  'BlendShape',
  'SpatialAudio',
  'Preliminary_ReferenceImage',
]);
const FILE_TYPES = /\.(usda|usdc|usd|usdz|png|jpe?g)$/i;
const SHADER_IDS = new Set(['UsdPreviewSurface', 'UsdUVTexture', 'UsdTransform2d']);

/**
 * The ARKit rules a package breaks that a repack cannot mend, checked on its composed stage as
 * `usdchecker --arkit` checks them: the root layer is the first entry and a `.usdc`, the stage
 * uses that one layer, the package holds only layers and PNG/JPEG images, the stage states
 * `upAxis = "Y"` and `metersPerUnit`, prims are of the types ARKit draws (no PointInstancer,
 * curves or lights), shaders are UsdPreviewSurface, UsdUVTexture, UsdTransform2d or primvar
 * readers, and every prim with a material binding applies MaterialBindingAPI and binds a
 * Material. An empty answer means the package can be delivered as it came (or as repacked).
 *
 * @example
 * ```ts
 * arkitRulesBroken(pkg, stage, layers.layerNames); // → [] for Pixar's clean_arkit.usdz
 * ```
 */
export function arkitRulesBroken(pkg: CheckedUsdzPackage, stage: UsdStage, layersUsed: readonly string[]): BrokenRule[] {
  const broken: BrokenRule[] = [];
  const add = (rule: string, message: string) => {
    if (!broken.some((b) => b.rule === rule)) broken.push({ rule, message });
  };
  const first = pkg.entries[0]!.name;
  if (!/\.usdc$/i.test(first)) add('root_layer_not_usdc', `the root layer ${first} is not a .usdc file`);
  if (layersUsed.length > 1)
    add('several_layers', `the stage uses ${layersUsed.length} layers (${layersUsed.join(', ')}); ARKit takes one`);
  // Entries left out were never read, but the package as uploaded still holds them.
  for (const name of [...pkg.entries.map((e) => e.name), ...pkg.leftOut])
    if (!FILE_TYPES.test(name)) add('file_type', `${name} is neither a USD layer nor a PNG or JPEG image`);
  if (stage.upAxis !== 'Y')
    add('up_axis', stage.upAxis === undefined ? 'the stage does not state its upAxis' : `the stage's upAxis is ${stage.upAxis}, not Y`);
  if (stage.metersPerUnit === undefined) add('meters_per_unit', 'the stage does not state its metersPerUnit');
  for (const prim of stage.traverse()) {
    if (!PRIM_TYPES.has(prim.typeName)) add('prim_type', `${prim.path} is a ${prim.typeName}, which ARKit does not draw`);
    if (prim.typeName === 'Shader') {
      const id = stage.value(prim, 'info:id');
      const text = id?.kind === 'token' ? id.value : '';
      if (!SHADER_IDS.has(text) && !text.startsWith('UsdPrimvarReader'))
        add('shader_id', `shader ${prim.path} is ${text ? `"${text}"` : 'unidentified'}; ARKit takes UsdPreviewSurface networks`);
    }
    const bindings = stage
      .propertyNames(prim)
      .filter((n) => n.startsWith('material:binding') && !n.startsWith('material:binding:collection'));
    if (bindings.length === 0) continue;
    if (!stage.primList(prim, 'apiSchemas').includes('MaterialBindingAPI'))
      add('material_binding_api', `${prim.path} binds a material without applying MaterialBindingAPI`);
    for (const name of bindings) {
      const [target] = stage.targets(prim, name);
      if (target && stage.prim(target)?.typeName !== 'Material')
        add('material_binding_target', `${prim.path}.${name} binds ${target}, which is not a Material`);
    }
  }
  return broken;
}
