/**
 * @packageDocumentation
 * The contained conversion alone (`@arsession/convert/pool`): what a caller needs to convert on
 * worker threads without loading the readers and writers into its own thread — the CLI and the
 * server's main thread start faster for it (the workers load them).
 */
export {
  ConvertError,
  MeshNodeLimitError,
  ModelTooLargeError,
  ModelUnreadableError,
  UnsupportedFormatError,
  UsdzPackageError,
} from './errors/ConvertError.js';
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
export type { ConversionResult, DoorQuery, SerializedConvertError } from './worker/protocol.js';
export { AR_BUDGET_DEFAULTS, type ArBudget, type BudgetReport } from './budget/ArBudget.js';
export { CONVERTER_VERSION } from './version.js';
export { readSharedFileAsync } from './io/readSharedFile.js';
export { arBudgetOnWire, type ArBudgetOnWire, type BudgetFiguresOnWire, type CategoryOnWire } from './report/arBudgetOnWire.js';
export { conversionStatsOnWire, type ConversionStatsOnWire } from './report/conversionStatsOnWire.js';
export { partsOnWire, type PartOnWire, type PartStoreyOnWire } from './report/partsOnWire.js';
export { storeysOnWire, type StoreyOnWire } from './report/storeysOnWire.js';
export { unpackParts, type PartFile } from './parts/unpackParts.js';
