import { ModelUnreadableError } from '../errors/ConvertError.js';
import type { SceneData, SceneNode, SceneWarning } from '../scene/SceneData.js';
import type { ElementRecord, PropertySets } from '../elements/ElementRecord.js';
import { flattenProperties } from '../elements/flattenProperties.js';
import { nodeElementRecords } from '../elements/nodeElementRecords.js';
import { plainValue } from './plainValue.js';
import { sceneBounds, sceneStats } from '../scene/sceneStats.js';
import { stageScene } from './stageScene.js';
import { PackageLayers, UsdStage, arkitRulesBroken, checkUsdzPackage } from '@arsession/usd';
import { fromUsdError, withConvertErrors } from './fromUsdError.js';

/** Options of {@link readUsdz}. */
export interface ReadUsdzOptions {
  fileName?: string;
  field?: string;
  /** Bytes the package's loaded entries may unpack to, together (default: `CHECK_USDZ_PACKAGE_DEFAULTS`). */
  maxUnpackedBytes?: number;
  /** Read each drawing prim's record (name, materials, customData, assetInfo) into `elementRecords` (see `nodeElementRecords`). */
  elementRecords?: boolean;
}

/** A USDZ read into scene data, with the package itself when ARKit can take it as it is. */
export interface UsdzScene extends SceneData {
  /**
   * The package to deliver instead of one written from the scene, when it meets every ARKit rule:
   * the upload byte for byte, or its repack when compression or alignment was all that was wrong.
   */
  arkitPackage?: { bytes: Uint8Array; repacked: boolean };
  /** Each drawing prim's record, when they were asked for. */
  elementRecords?: ElementRecord[];
}

/** USD's own fallbacks when a stage does not say: Y up, centimetres. */
const FALLBACK_UP_AXIS = 'Y';
const FALLBACK_METERS_PER_UNIT = 0.01;

/**
 * Reads a USDZ into {@link SceneData} with our own USD reader: package rules first
 * ({@link checkUsdzPackage}), then the stage composed from its layers (crate or text; sublayers,
 * references, payloads, inherits, variant selections, instanceable prims; packages inside the
 * package), every layer required to be in the package (an asset path that names nothing there is
 * left out with a warning, as OpenUSD leaves it), then geometry (meshes, implicit shapes, point instancers,
 * xform ops, `orientation`) and UsdPreviewSurface materials with all their textures, brought to
 * Y-up metres from the stage's `upAxis` and `metersPerUnit` (USD's fallbacks, Y and 0.01, when the
 * stage states none, with a warning). A package that already meets ARKit's rules comes back with
 * `arkitPackage`, to be delivered as it is.
 *
 * @example
 * ```ts
 * const scene = await readUsdz(readFileSync('chair.usdz'));
 * scene.arkitPackage?.bytes; // the upload itself, when ARKit takes it as it is
 * ```
 */
export async function readUsdz(input: Uint8Array, options: ReadUsdzOptions = {}): Promise<UsdzScene> {
  const named = {
    ...(options.fileName !== undefined && { fileName: options.fileName }),
    ...(options.field !== undefined && { field: options.field }),
  };
  // The USD library's refusals as the converter's, wherever in the reading they come from.
  return withConvertErrors(named, () => readPackage(input, options, named));
}

function readPackage(input: Uint8Array, options: ReadUsdzOptions, named: { fileName?: string; field?: string }): UsdzScene {
  const label = options.fileName ?? 'the USDZ';
  const pkg = checkUsdzPackage(input, {
    ...named,
    ...(options.maxUnpackedBytes !== undefined && { maxUnpackedBytes: options.maxUnpackedBytes }),
  });
  const warnings: SceneWarning[] = [];
  // Nested packages share the package's unpacking allowance.
  const layers = new PackageLayers(
    pkg.entries,
    { label, ...named, ...(options.maxUnpackedBytes !== undefined && { maxUnpackedBytes: options.maxUnpackedBytes }) },
    pkg.leftOut,
  );
  const stage = withLabel(label, named, () => UsdStage.open(layers, pkg.entries[0]!.name));
  const dangling = layers.danglingAssets();
  if (dangling.length) {
    const first = dangling[0]!;
    warnings.push({
      code: 'assets_missing',
      message:
        `${dangling.length} asset path(s) name nothing in the package (such as ` +
        `"${first.asset}" in ${first.layer}); what they name is left out, as OpenUSD leaves it`,
    });
  }
  if (pkg.leftOut.length) {
    warnings.push({
      code: 'entries_left_out',
      message:
        `${pkg.leftOut.length} package entr${pkg.leftOut.length === 1 ? 'y' : 'ies'} of a kind ARKit cannot ` +
        `load (such as "${pkg.leftOut[0]}") ${pkg.leftOut.length === 1 ? 'is' : 'are'} not delivered`,
    });
  }

  if (stage.upAxis === undefined || stage.metersPerUnit === undefined) {
    warnings.push({
      code: 'stage_defaults',
      message:
        `the stage does not state ` +
        `${[stage.upAxis === undefined && 'upAxis', stage.metersPerUnit === undefined && 'metersPerUnit'].filter(Boolean).join(' or ')}; ` +
        `USD's fallbacks (Y up, centimetres) were used`,
    });
  }
  const upAxis = (stage.upAxis ?? FALLBACK_UP_AXIS).toUpperCase();
  if (upAxis !== 'Y' && upAxis !== 'Z') throw new ModelUnreadableError(`${label}: upAxis "${stage.upAxis}" is neither Y nor Z`, named);
  const metersPerUnit = stage.metersPerUnit ?? FALLBACK_METERS_PER_UNIT;
  if (!(metersPerUnit > 0) || !Number.isFinite(metersPerUnit))
    throw new ModelUnreadableError(`${label}: metersPerUnit ${metersPerUnit} is not a positive number`, named);

  const content = withLabel(label, named, () => stageScene(stage, layers, stageMatrix(upAxis, metersPerUnit)));
  const broken = arkitRulesBroken(pkg, stage, layers.layerNames);
  if (dangling.length)
    broken.push({ rule: 'asset_missing', message: `asset paths name nothing in the package (such as "${dangling[0]!.asset}")` });
  if (broken.length === 0) {
    if (pkg.repaired.length)
      warnings.push({
        code: 'repacked',
        message: `the package broke ARKit's packaging rules (${pkg.repaired.join(', ')}); it is delivered repacked, its contents untouched`,
      });
  } else {
    const packaging = pkg.repaired.length
      ? `; its entries were also ${pkg.repaired.map((r) => r.replace(/_entry$/, '')).join(' and ')}`
      : '';
    warnings.push({
      code: 'rewritten',
      message: `the package is delivered rewritten for ARKit, as it breaks: ${broken.map((b) => b.message).join('; ')}${packaging}`,
    });
  }
  if (content.meshes.length === 0) warnings.push({ code: 'no_geometry', message: 'the model has no drawable geometry' });
  const base = { nodes: content.nodes, meshes: content.meshes, materials: content.materials, textures: content.textures };
  return {
    source: { format: 'usdz', schema: pkg.entries[0]!.name },
    ...base,
    offset: [0, 0, 0],
    bounds: sceneBounds(base),
    stats: sceneStats(base),
    warnings: [...warnings, ...content.warnings],
    ...(broken.length === 0 && { arkitPackage: { bytes: pkg.bytes, repacked: pkg.repaired.length > 0 } }),
    ...(options.elementRecords && { elementRecords: nodeElementRecords(base, primDataOf(stage)) }),
  };
}

/** A scene node's property sets from the prim it was read from: its `customData` and `assetInfo`. */
function primDataOf(stage: UsdStage): (node: SceneNode) => PropertySets {
  return (node): PropertySets => {
    const prim = node.metadata.usdPath === undefined ? undefined : stage.prim(node.metadata.usdPath);
    if (!prim) return {};
    return {
      customData: flattenProperties(plainValue(stage.primField(prim, 'customData'))),
      assetInfo: flattenProperties(plainValue(stage.primField(prim, 'assetInfo'))),
    };
  };
}

/**
 * The stage's units and up axis as one root transform over the whole tree: scaled by
 * metersPerUnit, and for a Z-up stage turned (x, y, z) → (x, z, −y) (columns: x→x, y→−z, z→y).
 */
function stageMatrix(upAxis: string, s: number): Float64Array {
  return upAxis === 'Z'
    ? new Float64Array([s, 0, 0, 0, 0, 0, -s, 0, 0, s, 0, 0, 0, 0, 0, 1])
    : new Float64Array([s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1]);
}

/** Runs a reading step; a reader's error that does not name the file yet is given its name. */
function withLabel<T>(label: string, named: { fileName?: string; field?: string }, step: () => T): T {
  try {
    return step();
  } catch (caught) {
    const err = fromUsdError(caught, named);
    if (err instanceof ModelUnreadableError && !err.message.startsWith(label)) {
      throw new ModelUnreadableError(`${label}: ${err.message}`, { ...named, cause: err });
    }
    throw err;
  }
}
