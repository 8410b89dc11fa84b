/**
 * `@arsession/convert/budget`: the AR budget's inner workings, for tests, the benchmark and an
 * embedder who builds a budget step of their own. What most callers need — `fitArBudget`, its
 * steps, `AR_BUDGET_DEFAULTS`, the report — is in the package's main entry. The map of these
 * files is `budget/README.md`.
 */
export { BudgetLedger, type BudgetTargets } from './BudgetLedger.js';
export { estimatePackageBytes } from './fitArBudget.js';
export {
  mergeToPrimBudget,
  MERGE_TO_PRIM_BUDGET_DEFAULTS,
  type MergedToBudget,
  type MergeToPrimBudgetOptions,
} from './mergeToPrimBudget.js';
export { drawnCentres, spatialCells } from './spatialCells.js';
export {
  simplifyToBudget,
  SIMPLIFY_TO_BUDGET_DEFAULTS,
  STRAY_PER_ERROR,
  type SimplifiedScene,
  type SimplifyToBudgetOptions,
} from './simplifyToBudget.js';
export { MeshSimplification } from './MeshSimplification.js';
export { categoryOfShape, CATEGORY_OF_SHAPE_DEFAULTS, type CategoryOfShapeOptions } from './categoryOfShape.js';
export { boxProxy, BOX_PROXY_TRIANGLES, topProxy, TOP_PROXY_TRIANGLES, type UpAxis } from './boxProxy.js';
export { proxyParts, PROXY_PARTS_DEFAULTS, type ProxyPartsOptions } from './proxyParts.js';
export { chainCategories } from './chainCategories.js';
export { ifcClassOfNode, meshCategories } from './meshCategories.js';
export { measureDeviation, MEASURE_DEVIATION_DEFAULTS, type Deviation, type MeasureDeviationOptions } from './measureDeviation.js';
export { DeviationProbe } from './DeviationProbe.js';
export { resizeTextures, type ResizedTextures } from './resizeTextures.js';
export {
  StreamReduction,
  STREAM_REDUCTION_DEFAULTS,
  type Rgba,
  type SharedGeometry,
  type StreamReductionOptions,
} from './StreamReduction.js';
export { fullReadTriangles, partsLevel } from './partsLevel.js';
export { mergedDrawCalls } from '../scene/mergeByMaterial.js';
