// @arsession/usd: reading and writing USD — crate (.usdc) and text (.usda) layers, their
// composition into a stage, and USDZ packages — with no notion of any scene format of its own.

// Errors
export { UsdError, UsdPackageError, UsdUnreadableError, type UsdErrorSubject } from './errors/UsdError.js';

// Sdf: layers as specs and fields
export type { SdfLayer, SdfLayerOffset, SdfListOp, SdfNumberType, SdfReference, SdfSpec, SdfSpecType, SdfValue } from './sdf/SdfLayer.js';
export { applyListOp, composeListOps, EMPTY_LIST_OP } from './sdf/listOps.js';
export { childPath, hasPathPrefix, propertyPath, replacePrefix, splitPropertyPath, variantPath } from './sdf/sdfPath.js';

// Crate files (.usdc)
export { readCrate, readCrateStructure, type CrateStructure, type ReadCrateOptions } from './crate/readCrate.js';
export { CrateWriter, CRATE_VERSION, type ValueRep } from './crate/CrateWriter.js';
export { CRATE_TYPE, SPEC_TYPE } from './crate/crateTypes.js';
export { compressIntegers, decodeIntegers, encodeIntegers } from './crate/integerCoding.js';
export { decompressFramed, DecompressError } from './crate/decompressLz4.js';
export { fastCompress } from './crate/fastCompression.js';
export {
  DecodeBudget,
  DecodeBudgetExceeded,
  decodeBudgetFor,
  DECODE_BUDGET_DEFAULTS,
  type DecodeBudgetOptions,
} from './crate/DecodeBudget.js';

// Text layers (.usda)
export { parseUsda, USDA_MAX_NESTING, type ParseUsdaOptions } from './usda/parseUsda.js';
export {
  tokenizeUsda,
  USDA_ASSET,
  USDA_END,
  USDA_MAGIC,
  USDA_NAME,
  USDA_NUMBER,
  USDA_PATH,
  USDA_PUNCT,
  USDA_STRING,
  type UsdaToken,
  type UsdaTokenKind,
} from './usda/tokenizeUsda.js';
export { AsciiWriter } from './write/AsciiWriter.js';
export { formatFloat64, intArray, primName, quote, tupleArray, USDA_DECIMALS } from './write/usdaText.js';
export type {
  UsdAttribute,
  UsdLayer,
  UsdPrim,
  UsdProperty,
  UsdRelationship,
  UsdTypeName,
  UsdValue,
  UsdVariantSet,
} from './layer/UsdLayer.js';

// Composition
export { UsdStage, type LayerSource, type StagePrim } from './stage/UsdStage.js';
export { buildLayerStack, LayerStack, type StackLayer } from './stage/LayerStack.js';
export { PackageLayers } from './stage/PackageLayers.js';
export { sampleAt } from './stage/sampleAt.js';

// Geometry as UsdGeom defines it
export { localTransform, type LocalTransform } from './geom/xformOps.js';
export { numericArray, readPrimvar, type Interpolation, type Primvar } from './geom/readPrimvar.js';
export {
  tessellateCapsule,
  tessellateCube,
  tessellateCylinder,
  tessellatePlane,
  tessellateSphere,
  TESSELLATE_DEFAULTS,
  type ShapeAxis,
  type TessellateOptions,
  type TriangleMesh,
} from './geom/implicitShapes.js';

// USDZ packages
export {
  checkUsdzPackage,
  CHECK_USDZ_PACKAGE_DEFAULTS,
  type CheckedUsdzPackage,
  type CheckUsdzPackageOptions,
} from './package/checkUsdzPackage.js';
export { arkitRulesBroken, type BrokenRule } from './package/arkitRulesBroken.js';

// Zip, as USDZ and .ifczip use it (stored entries, 64-byte aligned, checked against hostile headers)
export {
  readZipDirectory,
  zipLayout,
  zipStored,
  ZIP_STORED_DEFAULTS,
  type ZipDirectoryEntry,
  type ZipEntry,
  type ZipEntryHeader,
  type ZipEntryInput,
  type ZipLayout,
  type ZipStoredOptions,
} from './zip/index.js';
