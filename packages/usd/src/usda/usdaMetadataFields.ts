// The metadata fields USD registers (Sdf's schema and the plugInfo.json of usd, usdGeom,
// usdShade, usdPhysics, usdRender), by the kind of spec they may be authored on, with the type
// their values are read as. A key not listed here is unregistered: its value is kept as parsed.
// Keys that are registered fields but not metadata (`specifier`, `default`, …) may not be written
// as metadata at all.

/** Where metadata is written. */
export type UsdaSpecKind = 'layer' | 'prim' | 'attribute' | 'relationship';

/** The type a metadatum's value is read as. */
export type UsdaFieldType =
  | 'bool'
  | 'int'
  | 'float'
  | 'double'
  | 'string'
  | 'token'
  | 'asset'
  | 'dictionary'
  | 'token[]'
  | 'string[]'
  | 'asset[]'
  | 'tokenListOp'
  | 'stringListOp'
  | 'int64ListOp';

const LAYER: Record<string, UsdaFieldType> = {
  colorConfiguration: 'asset',
  colorManagementSystem: 'token',
  customLayerData: 'dictionary',
  defaultPrim: 'token',
  documentation: 'string',
  endTimeCode: 'double',
  expressionVariables: 'dictionary',
  framesPerSecond: 'double',
  framePrecision: 'int',
  hasOwnedSubLayers: 'bool',
  owner: 'string',
  sessionOwner: 'string',
  startTimeCode: 'double',
  timeCodesPerSecond: 'double',
  endFrame: 'double',
  startFrame: 'double',
  // Plugins: usdGeom, usdPhysics, usdRender, usd.
  upAxis: 'token',
  metersPerUnit: 'double',
  kilogramsPerUnit: 'double',
  renderSettingsPrimPath: 'string',
  fallbackPrimTypes: 'dictionary',
};

const PRIM: Record<string, UsdaFieldType> = {
  active: 'bool',
  assetInfo: 'dictionary',
  customData: 'dictionary',
  displayGroupOrder: 'string[]',
  displayName: 'string',
  documentation: 'string',
  hidden: 'bool',
  instanceable: 'bool',
  kind: 'token',
  prefix: 'string',
  suffix: 'string',
  symmetricPeer: 'string',
  symmetryArguments: 'dictionary',
  symmetryFunction: 'token',
  typeName: 'token',
  // Plugins: usd, usdGeom, usdShade, sdf.
  apiSchemas: 'tokenListOp',
  clipSets: 'stringListOp',
  clips: 'dictionary',
  inactiveIds: 'int64ListOp',
  payloadAssetDependencies: 'asset[]',
  sdrMetadata: 'dictionary',
};

const PROPERTY: Record<string, UsdaFieldType> = {
  assetInfo: 'dictionary',
  customData: 'dictionary',
  displayGroup: 'string',
  displayName: 'string',
  documentation: 'string',
  hidden: 'bool',
  prefix: 'string',
  suffix: 'string',
  symmetricPeer: 'string',
  symmetryArguments: 'dictionary',
  symmetryFunction: 'token',
  renderType: 'token', // usdShade, on every property
};

const ATTRIBUTE: Record<string, UsdaFieldType> = {
  ...PROPERTY,
  allowedTokens: 'token[]',
  colorSpace: 'token',
  // Plugins: usdGeom, usdShade, usdSkel, usdImaging.
  constraintTargetIdentifier: 'token',
  elementSize: 'int',
  interpolation: 'token',
  unauthoredValuesIndex: 'int',
  connectability: 'token',
  sdrMetadata: 'dictionary',
  weight: 'float',
  faceIndexPrimvar: 'token',
  faceOffsetPrimvar: 'token',
  uvPrimvar: 'token',
};

const RELATIONSHIP: Record<string, UsdaFieldType> = {
  ...PROPERTY,
  noLoadHint: 'bool',
  bindMaterialAs: 'token',
  outputName: 'token',
};

const FIELDS: Record<UsdaSpecKind, Record<string, UsdaFieldType>> = {
  layer: LAYER,
  prim: PRIM,
  attribute: ATTRIBUTE,
  relationship: RELATIONSHIP,
};

const PROPERTY_FIELDS = ['custom', 'variability', 'comment', 'default', 'timeSamples'];
const NOT_METADATA: Record<UsdaSpecKind, Set<string>> = {
  layer: new Set(['comment', 'primChildren', 'layerRelocates', 'primOrder', 'subLayerOffsets']),
  prim: new Set([
    'specifier',
    'comment',
    'inheritPaths',
    'primChildren',
    'primOrder',
    'properties',
    'propertyOrder',
    'variantSelection',
    'variantSetChildren',
    'variantSetNames',
  ]),
  attribute: new Set([...PROPERTY_FIELDS, 'typeName', 'connectionChildren', 'connectionPaths']),
  relationship: new Set([...PROPERTY_FIELDS, 'targetChildren', 'targetPaths']),
};

/**
 * How metadatum `key` on a spec of `kind` is read: its registered type, `'notMetadata'` for a
 * field that may not be written as metadata, or `undefined` for an unregistered key.
 *
 * @example
 * ```ts
 * usdaMetadataField('layer', 'metersPerUnit'); // → 'double'
 * usdaMetadataField('prim', 'apiSchemas'); // → 'tokenListOp'
 * usdaMetadataField('prim', 'sceneName'); // → undefined
 * ```
 */
export function usdaMetadataField(kind: UsdaSpecKind, key: string): UsdaFieldType | 'notMetadata' | undefined {
  const fields = FIELDS[kind];
  if (Object.hasOwn(fields, key)) return fields[key];
  return NOT_METADATA[kind].has(key) ? 'notMetadata' : undefined;
}
