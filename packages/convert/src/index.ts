/**
 * @packageDocumentation
 * Everything between uploaded model bytes and the files an AR client downloads: format
 * recognition, limits, readers into plain scene data, and ARKit-ready writers.
 */
export {
  ConversionMemoryError,
  ConvertError,
  MeshNodeLimitError,
  ModelTooLargeError,
  ModelUnreadableError,
  UnsupportedFormatError,
  UsdzPackageError,
} from './errors/ConvertError.js';
export { detectFormat, zipEntryNames, type ModelFormat } from './format/detectFormat.js';
export { readGlbJson, type GltfJson } from './glb/readGlbJson.js';
export { countMeshNodes } from './glb/countMeshNodes.js';
export { checkMeshNodeLimit, MESH_NODE_LIMIT, type CheckMeshNodeLimitOptions } from './glb/checkMeshNodeLimit.js';
export { readIfcHeader, type IfcHeader } from './ifc/readIfcHeader.js';
export { checkStepSyntax, CHECK_STEP_SYNTAX_DEFAULTS, type CheckStepSyntaxOptions } from './ifc/checkStepSyntax.js';
export { StepEntityOffsets } from './ifc/StepEntityOffsets.js';
export { IfcElementCounter } from './ifc/IfcElementCounter.js';
export { inspectModel, type InspectModelOptions, type ModelSummary } from './inspect/inspectModel.js';
export type {
  ChannelTextureRef,
  SceneData,
  SceneElementRange,
  SceneMaterial,
  SceneMesh,
  SceneNode,
  SceneSource,
  SceneStats,
  SceneTexture,
  SceneWarning,
  StreamReducedFigures,
  TextureRef,
} from './scene/SceneData.js';
export { drawCalls, sceneBounds, sceneStats, worldMatrices } from './scene/sceneStats.js';
export { sceneTriangles, type SceneTriangles } from './scene/sceneTriangles.js';
export type { SceneLevel, SceneStorey } from './scene/SceneLevel.js';
export { splitIntoParts, SPLIT_INTO_PARTS_DEFAULTS, type SplitIntoPartsOptions } from './parts/splitIntoParts.js';
export type { ScenePart } from './parts/ScenePart.js';
export { partScene } from './parts/partScene.js';
export {
  deliverParts,
  DELIVER_PARTS_DEFAULTS,
  type DeliverPartsOptions,
  type DeliveredPart,
  type DeliveredParts,
} from './parts/deliverParts.js';
export { readGlb, type ReadGlbOptions } from './glb/readGlb.js';
export { checkGlbLayout } from './glb/checkGlbLayout.js';
export {
  zipLayout,
  zipStored,
  ZIP_STORED_DEFAULTS,
  type ZipEntry,
  type ZipEntryHeader,
  type ZipEntryInput,
  type ZipLayout,
  type ZipStoredOptions,
} from '@arsession/usd';
export { writeUsdzFile, type WrittenUsdzFile } from './usdz/writeUsdzFile.js';
export { accessibilityOf, classInWords, type AccessibilityText } from './usdz/layer/accessibility.js';
export { deliveredStoreys, type DeliveredStorey } from './usdz/layer/deliveredStoreys.js';
export { isStoreyNode } from './scene/SceneLevel.js';
export { storeyVariants, STOREY_VARIANTS_DEFAULTS, type StoreyVariantsOptions } from './glb/storeyVariants.js';
export { writeUsdaLayer, renderUsda, WRITE_USDA_LAYER_DEFAULTS, type WriteUsdaLayerOptions } from './usdz/writeUsdaLayer.js';
export { writeUsdcLayer, renderUsdc, WRITE_USDC_LAYER_DEFAULTS, type WriteUsdcLayerOptions } from './usdz/writeUsdcLayer.js';
export {
  describeLayer,
  rootPrimPaths,
  textureEntryName,
  DESCRIBE_LAYER_DEFAULTS,
  PROTOTYPES_SCOPE,
  type DescribeLayerOptions,
} from './usdz/layer/describeLayer.js';
export type { UsdAttribute, UsdLayer, UsdPrim, UsdProperty, UsdRelationship, UsdTypeName, UsdValue } from '@arsession/usd';
export { writeUsdz, WRITE_USDZ_DEFAULTS, type WriteUsdzOptions } from './usdz/writeUsdz.js';
export { readIfc, READ_IFC_DEFAULTS, type IfcSceneData, type ReadIfcOptions } from './ifc/readIfc.js';
export { readSharedFile, readSharedFileAsync } from './io/readSharedFile.js';
export type { DoorOpeningRecord, IfcElementRef, OpeningFace } from './ifc/DoorOpeningRecord.js';
export { WARNING_CODES, type WarningCode } from './scene/warningCodes.js';
export { doorApproaches, DOOR_APPROACH_DEFAULTS, type DoorApproach, type DoorApproachOptions } from './ifc/doorApproaches.js';
export { measureOpening, type MeasuredOpening, type MeasureOpeningInput } from './ifc/measureOpening.js';
export { unzipIfc, UNZIP_IFC_DEFAULTS, type UnzipIfcOptions } from './ifc/unzipIfc.js';
export { readModel, READ_MODEL_DEFAULTS, type ModelScene, type ReadModelOptions } from './model/readModel.js';
export {
  closeConversionPool,
  configureConversionPool,
  conversionPoolStats,
  convertModel,
  warmConversionPool,
  type SharedPoolOptions,
} from './worker/convertModel.js';
export {
  createConversionPool,
  CONVERSION_POOL_DEFAULTS,
  CONVERT_MODEL_DEFAULTS,
  WARM_CONVERSION_POOL_DEFAULTS,
  type ConversionPool,
  type ConversionPoolOptions,
  type ConversionPoolStats,
  type ConvertModelOptions,
  type WarmConversionPoolOptions,
} from './worker/createConversionPool.js';
export { reviveError, serializeError, type CrossingError } from './worker/crossingErrors.js';
export type { ConversionRequest, ConversionResult, DoorQuery, SerializedConvertError } from './worker/protocol.js';
export { runConversion } from './worker/runConversion.js';
export { doorCandidates } from './ifc/doorCandidates.js';
export { detectDoorInScene } from './model/detectDoorInScene.js';
export { findDoorApproaches, FIND_DOOR_APPROACHES_DEFAULTS, type FindDoorApproachesOptions } from './model/findDoorApproaches.js';
export { writeGlb } from './glb/writeGlb.js';
export { mergeByMaterial, MERGE_BY_MATERIAL_DEFAULTS, type MergeByMaterialOptions } from './scene/mergeByMaterial.js';
export { readZipDirectory, type ZipDirectoryEntry } from '@arsession/usd';
export { checkUsdzPackage } from './usdz/checkUsdzPackage.js';
export { CHECK_USDZ_PACKAGE_DEFAULTS, type CheckedUsdzPackage, type CheckUsdzPackageOptions } from '@arsession/usd';
export { readUsdz, type ReadUsdzOptions } from './usdz/readUsdz.js';
export { CONVERTER_VERSION } from './version.js';
export { anchorUsdz, ANCHORED_PRIMS, usdzAnchorRefusal, type AnchorUsdzOptions, type UsdzAnchoring } from './usdz/anchor/anchorUsdz.js';
export { appendToGlb, APPEND_TO_GLB_DEFAULTS, type AppendToGlbOptions } from './glb/overlay/appendToGlb.js';
export { overlayMeshes, type OverlayColor, type OverlayMesh, type OverlayShapes } from './glb/overlay/overlayShapes.js';
export {
  AR_BUDGET_DEFAULTS,
  withinBudget,
  type ArBudget,
  type BudgetFigures,
  type BudgetReport,
  type BudgetStep,
  type CategoryFigures,
} from './budget/ArBudget.js';
export {
  budgetFigures,
  defaultBudgetSteps,
  fitArBudget,
  type DefaultBudgetStepsOptions,
  type FitArBudgetOptions,
  type FittedScene,
} from './budget/fitArBudget.js';
export { SIMPLIFICATION_POLICY_DEFAULTS, type SimplificationPolicy } from './budget/SimplificationPolicy.js';
export type { BudgetTransform } from './budget/BudgetTransform.js';
export { simplifyTriangles, SIMPLIFY_TRIANGLES_DEFAULTS, type SimplifyTrianglesOptions } from './budget/steps/simplifyTriangles.js';
export { scaleTextures } from './budget/steps/scaleTextures.js';
export { mergePrims, MERGE_PRIMS_DEFAULTS, type MergePrimsOptions } from './budget/steps/mergePrims.js';
export { BUDGET_CATEGORIES, type BudgetCategory } from './budget/BudgetCategory.js';
export { categoryOfIfcClass } from './budget/categoryOfIfcClass.js';
export { arBudgetOnWire, type ArBudgetOnWire, type BudgetFiguresOnWire, type CategoryOnWire } from './report/arBudgetOnWire.js';
export { conversionStatsOnWire, type ConversionStatsOnWire } from './report/conversionStatsOnWire.js';
export { partsOnWire, type PartOnWire, type PartStoreyOnWire } from './report/partsOnWire.js';
export { storeysOnWire, type StoreyOnWire } from './report/storeysOnWire.js';
export { unpackParts, type PartFile } from './parts/unpackParts.js';
export type { ElementRecord, ElementRecords, PropertySets, PropertyValue } from './elements/ElementRecord.js';
export { imageSize } from './image/imageSize.js';
export { CONVERSION_BASE_BYTES, geometryBytesWithin, MEMORY_PER_GEOMETRY_BYTE } from './model/geometryBytesWithin.js';
export type { Rgba, SharedGeometry } from './budget/StreamReduction.js';
