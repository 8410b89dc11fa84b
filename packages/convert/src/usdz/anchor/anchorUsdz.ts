import { ConvertError, UsdzPackageError } from '../../errors/ConvertError.js';
import { withConvertErrors } from '../fromUsdError.js';
import {
  CRATE_TYPE,
  CrateWriter,
  UsdError,
  SPEC_TYPE,
  readCrateStructure,
  readZipDirectory,
  zipStored,
  type CrateStructure,
  type ValueRep,
} from '@arsession/usd';

/** Where AR Quick Look is to anchor a package (Apple's `Preliminary_AnchoringAPI`). */
export type UsdzAnchoring =
  | { type: 'plane'; alignment: 'horizontal' | 'vertical' }
  | {
      type: 'image';
      /** The printed image, as the package will hold it (PNG or JPEG bytes). */
      image: { data: Uint8Array; mimeType: 'image/png' | 'image/jpeg' };
      /** Its printed width (m). */
      physicalWidth: number;
    };

/** Options of {@link anchorUsdz}. */
export interface AnchorUsdzOptions {
  anchoring: UsdzAnchoring;
  /**
   * Where the model stands in the anchor's frame: a column-major 4×4 taking a point of the
   * delivered model (Y-up metres) into the frame Apple's anchors have — origin at the anchor's
   * centre, +Y along its normal, +X to the right as one faces it and +Z toward its bottom edge.
   */
  modelToAnchor: ArrayLike<number>;
}

/** Names of the prims the anchored package adds around the model. */
export const ANCHORED_PRIMS = { anchor: 'Anchored', model: 'Placed', image: 'ReferenceImage' } as const;

const TRANSFORM = 'xformOp:transform';
const ANCHORING_API = 'Preliminary_AnchoringAPI';

/**
 * Why {@link anchorUsdz} would refuse a package, or undefined when it can anchor it: a package
 * that anchors itself already, one whose root layer is not a stored `.usdc` first, or not Y-up.
 * Cheap beside the anchoring itself (the crate's tables are read, no value is written).
 *
 * @example
 * ```ts
 * const refusal = usdzAnchorRefusal(upload); // UsdzPackageError { code: 'anchored_already', … }
 * ```
 */
export function usdzAnchorRefusal(usdz: Uint8Array): UsdzPackageError | undefined {
  try {
    anchorable(usdz);
    return undefined;
  } catch (err) {
    if (err instanceof UsdzPackageError) return err;
    // A root layer our reader cannot take apart cannot be extended either.
    if (err instanceof ConvertError || err instanceof UsdError) return new UsdzPackageError('root_layer_unreadable', err.message);
    throw err;
  }
}

/**
 * Makes a package that places itself in AR Quick Look from an ARKit-ready USDZ (one `.usdc` root
 * layer first, Y up): the layer gains a root prim `/Anchored` carrying Apple's anchoring schema
 * (`preliminary:anchoring:type` `plane` with `preliminary:planeAnchoring:alignment`, or `image`
 * with `preliminary:imageAnchoring:referenceImage` naming a `Preliminary_ReferenceImage` prim that
 * holds the image and its `physicalWidth` in centimetres), and the model moves under
 * `/Anchored/Placed`, whose transform sets it where `modelToAnchor` says. The layer is extended,
 * not rewritten ({@link CrateWriter.extending}): every value of the model stays the bytes it was,
 * so a package delivered as uploaded keeps everything it held; every other entry is copied as it
 * is, and the package stays one layer, as ARKit requires. A package that anchors itself already,
 * or that is not of that shape, is refused with a {@link UsdzPackageError} naming why.
 *
 * @example
 * ```ts
 * const parts = anchorUsdz(usdz, { anchoring: { type: 'plane', alignment: 'horizontal' }, modelToAnchor: identity });
 * ```
 */
export function anchorUsdz(usdz: Uint8Array, options: AnchorUsdzOptions): Uint8Array[] {
  const { entries, root, layer, structure, pseudoRoot, metersPerUnit } = withConvertErrors({}, () => anchorable(usdz));
  const crate = CrateWriter.extending(layer, structure);
  const oldRoot = crate.newRoot();
  const newRoot = crate.rootPath();
  const anchor = crate.childPath(newRoot, ANCHORED_PRIMS.anchor);
  crate.adoptPath(anchor, oldRoot, ANCHORED_PRIMS.model);
  const image =
    options.anchoring.type === 'image'
      ? imageEntryName(
          entries.map((e) => e.name),
          options.anchoring.image.mimeType,
        )
      : undefined;

  // The layer's metadata moves to the new root; its default prim is now the anchor.
  crate.replaceSpec(newRoot, SPEC_TYPE.PseudoRoot, [
    ...pseudoRoot.fields.filter(([name]) => name !== 'primChildren' && name !== 'defaultPrim'),
    ['defaultPrim', crate.token(ANCHORED_PRIMS.anchor)],
    ['primChildren', crate.tokenVector([ANCHORED_PRIMS.anchor])],
  ]);

  const anchorProperties =
    options.anchoring.type === 'plane'
      ? ['preliminary:anchoring:type', 'preliminary:planeAnchoring:alignment']
      : ['preliminary:anchoring:type', 'preliminary:imageAnchoring:referenceImage'];
  crate.addSpec(anchor, SPEC_TYPE.Prim, [
    ['specifier', crate.specifierDef()],
    ['typeName', crate.token('Xform')],
    ['apiSchemas', crate.tokenListOpPrepend([ANCHORING_API])],
    ['primChildren', crate.tokenVector(image ? [ANCHORED_PRIMS.model, ANCHORED_PRIMS.image] : [ANCHORED_PRIMS.model])],
    ['properties', crate.tokenVector(anchorProperties)],
  ]);
  uniformToken(crate, crate.childPath(anchor, 'preliminary:anchoring:type', true), options.anchoring.type);
  if (options.anchoring.type === 'plane') {
    uniformToken(crate, crate.childPath(anchor, 'preliminary:planeAnchoring:alignment', true), options.anchoring.alignment);
  } else {
    const imagePrim = crate.childPath(anchor, ANCHORED_PRIMS.image);
    crate.addSpec(crate.childPath(anchor, 'preliminary:imageAnchoring:referenceImage', true), SPEC_TYPE.Relationship, [
      ['variability', crate.variability(true)],
      ['targetPaths', crate.pathListOpExplicit([`/${ANCHORED_PRIMS.anchor}/${ANCHORED_PRIMS.image}`])],
    ]);
    crate.addSpec(imagePrim, SPEC_TYPE.Prim, [
      ['specifier', crate.specifierDef()],
      ['typeName', crate.token('Preliminary_ReferenceImage')],
      ['properties', crate.tokenVector(['image', 'physicalWidth'])],
    ]);
    crate.addSpec(crate.childPath(imagePrim, 'image', true), SPEC_TYPE.Attribute, [
      ['typeName', crate.token('asset')],
      ['variability', crate.variability(true)],
      ['default', crate.assetPath(image!)],
    ]);
    // Apple's schema states the printed width in centimetres, whatever the stage's units.
    crate.addSpec(crate.childPath(imagePrim, 'physicalWidth', true), SPEC_TYPE.Attribute, [
      ['typeName', crate.token('double')],
      ['variability', crate.variability(true)],
      ['default', crate.double(options.anchoring.physicalWidth * 100)],
    ]);
  }

  // The old pseudo-root is now the prim that places the model: its children are the model's prims.
  const children = pseudoRoot.fields.find(([name]) => name === 'primChildren');
  crate.replaceSpec(oldRoot, SPEC_TYPE.Prim, [
    ['specifier', crate.specifierDef()],
    ['typeName', crate.token('Xform')],
    ...(children ? [children] : []),
    ['properties', crate.tokenVector([TRANSFORM, 'xformOpOrder'])],
  ]);
  crate.addSpec(crate.childPath(oldRoot, TRANSFORM, true), SPEC_TYPE.Attribute, [
    ['typeName', crate.token('matrix4d')],
    ['variability', crate.variability(false)],
    ['default', crate.matrix4d(inStageUnits(options.modelToAnchor, metersPerUnit))],
  ]);
  crate.addSpec(crate.childPath(oldRoot, 'xformOpOrder', true), SPEC_TYPE.Attribute, [
    ['typeName', crate.token('token[]')],
    ['variability', crate.variability(true)],
    ['default', crate.textArray(CRATE_TYPE.Token, [TRANSFORM])],
  ]);

  return zipStored([
    { name: root.name, data: crate.finish() },
    ...entries.slice(1).map((e) => ({ name: e.name, data: usdz.subarray(e.dataOffset, e.dataOffset + e.size) })),
    ...(image && options.anchoring.type === 'image' ? [{ name: image, data: options.anchoring.image.data }] : []),
  ]);
}

/** The package's parts anchorUsdz extends, once they are known to be of the shape it needs. */
function anchorable(usdz: Uint8Array) {
  const entries = readZipDirectory(usdz);
  const root = entries[0];
  if (!root || !/\.usdc$/i.test(root.name) || root.method !== 0)
    throw new UsdzPackageError('root_layer_not_usdc', 'the package does not start with a stored .usdc layer');
  const layer = usdz.subarray(root.dataOffset, root.dataOffset + root.size);
  const structure = readCrateStructure(layer, root.name);
  if (structure.tokens.includes(ANCHORING_API))
    throw new UsdzPackageError('anchored_already', 'the package anchors itself already (it applies Preliminary_AnchoringAPI)');
  const rootPath = structure.paths.find((p) => p.parent === -1)?.index;
  const spec = structure.specs.find((s) => s.path === rootPath && s.type === SPEC_TYPE.PseudoRoot);
  if (!spec) throw new UsdzPackageError('no_pseudo_root', `${root.name} has no layer metadata`);
  const pseudoRoot = { fields: fieldsOf(structure, spec.fieldSet) };
  const metadata = new Map(pseudoRoot.fields);
  const field = (name: string) => {
    const rep = metadata.get(name);
    return rep && structure.value(rep);
  };
  const upAxis = field('upAxis');
  if ((upAxis?.kind === 'token' ? upAxis.value : 'Y') !== 'Y') throw new UsdzPackageError('up_axis', `${root.name} is not Y-up`);
  // The anchored stage keeps the model's units: the placement, in metres, is stated in them.
  const units = field('metersPerUnit');
  const metersPerUnit = units?.kind === 'number' ? units.value : 0.01;
  return { entries, root, layer, structure, pseudoRoot, metersPerUnit };
}

/** A field set's fields as (name, value) pairs, as CrateWriter's specsOf gives them. */
function fieldsOf(structure: CrateStructure, fieldSet: number): Array<[string, ValueRep]> {
  const fields: Array<[string, ValueRep]> = [];
  for (let f = fieldSet; structure.fieldSets[f] !== FIELD_SET_END; f++) {
    const field = structure.fields[structure.fieldSets[f]!]!;
    fields.push([structure.tokens[field.token]!, field.rep]);
  }
  return fields;
}

/** What ends each field set in a crate's table. */
const FIELD_SET_END = 0xffffffff;

function uniformToken(crate: CrateWriter, path: number, value: string): void {
  const fields: Array<readonly [string, ValueRep]> = [
    ['typeName', crate.token('token')],
    ['variability', crate.variability(true)],
    ['default', crate.token(value)],
  ];
  crate.addSpec(path, SPEC_TYPE.Attribute, fields);
}

/**
 * `modelToAnchor` (metres) for a stage in other units: the stage's points are scaled by
 * `metersPerUnit` into metres, moved, and scaled back, so the translation comes out in stage units.
 * USD stores a matrix row by row with its translation in the last row (row vectors): the same 16
 * numbers, in the same order, as a column-major matrix for column vectors.
 */
function inStageUnits(m: ArrayLike<number>, metersPerUnit: number): number[] {
  const out = Array.from(m);
  for (const i of [12, 13, 14]) out[i] = out[i]! / metersPerUnit;
  return out;
}

/** The reference image's entry name: `reference_image.png` (or `.jpg`), numbered if the package has one already. */
function imageEntryName(taken: readonly string[], mimeType: 'image/png' | 'image/jpeg'): string {
  const ext = mimeType === 'image/png' ? 'png' : 'jpg';
  for (let i = 0; ; i++) {
    const name = i === 0 ? `reference_image.${ext}` : `reference_image_${i}.${ext}`;
    if (!taken.includes(name)) return name;
  }
}
