// USD's crate value types (OpenUSD's `crateDataTypes.h`): the number each type has in a file,
// and what its values are made of. Numbers are fixed forever; new types are only added.

/** Crate type numbers of the values we write. */
export const CRATE_TYPE = {
  Bool: 1,
  Int: 3,
  Float: 8,
  Double: 9,
  String: 10,
  Token: 11,
  AssetPath: 12,
  Matrix4d: 15,
  Vec2f: 20,
  Vec3f: 24,
  Vec4f: 28,
  Dictionary: 31,
  TokenListOp: 32,
  StringListOp: 33,
  PathListOp: 34,
  ReferenceListOp: 35,
  TokenVector: 41,
  Specifier: 42,
  Variability: 44,
  VariantSelectionMap: 45,
} as const;

/** Sdf spec types (USD's `SdfSpecType`) we write. */
export const SPEC_TYPE = { Attribute: 1, Prim: 6, PseudoRoot: 7, Relationship: 8, Variant: 10, VariantSet: 11 } as const;

/** Every Sdf spec type by its number, as the SdfLayer model names them (0 is "unknown"). */
export const SPEC_TYPE_NAMES = [
  undefined,
  'attribute',
  'connection',
  'expression',
  'mapper',
  'mapperArg',
  'prim',
  'pseudoRoot',
  'relationship',
  'relationshipTarget',
  'variant',
  'variantSet',
] as const;

/** Numeric components: how each is stored. */
export type CrateScalar = 'bool' | 'uchar' | 'int' | 'uint' | 'int64' | 'uint64' | 'half' | 'float' | 'double' | 'timecode';

/** A numeric crate type: its USD name, its component, and components per value. */
export interface CrateNumericType {
  name: string;
  scalar: CrateScalar;
  components: number;
}

/** Bytes of one stored component. */
export const SCALAR_BYTES: Record<CrateScalar, number> = {
  bool: 1,
  uchar: 1,
  int: 4,
  uint: 4,
  int64: 8,
  uint64: 8,
  half: 2,
  float: 4,
  double: 8,
  timecode: 8,
};

/** The numeric types by number (scalars, vectors, quaternions, matrices); other numbers are not numeric. */
export const NUMERIC_TYPES: ReadonlyMap<number, CrateNumericType> = new Map<number, CrateNumericType>([
  [1, { name: 'bool', scalar: 'bool', components: 1 }],
  [2, { name: 'uchar', scalar: 'uchar', components: 1 }],
  [3, { name: 'int', scalar: 'int', components: 1 }],
  [4, { name: 'uint', scalar: 'uint', components: 1 }],
  [5, { name: 'int64', scalar: 'int64', components: 1 }],
  [6, { name: 'uint64', scalar: 'uint64', components: 1 }],
  [7, { name: 'half', scalar: 'half', components: 1 }],
  [8, { name: 'float', scalar: 'float', components: 1 }],
  [9, { name: 'double', scalar: 'double', components: 1 }],
  [13, { name: 'matrix2d', scalar: 'double', components: 4 }],
  [14, { name: 'matrix3d', scalar: 'double', components: 9 }],
  [15, { name: 'matrix4d', scalar: 'double', components: 16 }],
  [16, { name: 'quatd', scalar: 'double', components: 4 }],
  [17, { name: 'quatf', scalar: 'float', components: 4 }],
  [18, { name: 'quath', scalar: 'half', components: 4 }],
  [19, { name: 'double2', scalar: 'double', components: 2 }],
  [20, { name: 'float2', scalar: 'float', components: 2 }],
  [21, { name: 'half2', scalar: 'half', components: 2 }],
  [22, { name: 'int2', scalar: 'int', components: 2 }],
  [23, { name: 'double3', scalar: 'double', components: 3 }],
  [24, { name: 'float3', scalar: 'float', components: 3 }],
  [25, { name: 'half3', scalar: 'half', components: 3 }],
  [26, { name: 'int3', scalar: 'int', components: 3 }],
  [27, { name: 'double4', scalar: 'double', components: 4 }],
  [28, { name: 'float4', scalar: 'float', components: 4 }],
  [29, { name: 'half4', scalar: 'half', components: 4 }],
  [30, { name: 'int4', scalar: 'int', components: 4 }],
  [56, { name: 'timecode', scalar: 'timecode', components: 1 }],
]);

/** The other types' numbers. */
export const TYPE = {
  String: 10,
  Token: 11,
  AssetPath: 12,
  Dictionary: 31,
  TokenListOp: 32,
  StringListOp: 33,
  PathListOp: 34,
  ReferenceListOp: 35,
  IntListOp: 36,
  Int64ListOp: 37,
  UIntListOp: 38,
  UInt64ListOp: 39,
  PathVector: 40,
  TokenVector: 41,
  Specifier: 42,
  Permission: 43,
  Variability: 44,
  VariantSelectionMap: 45,
  TimeSamples: 46,
  Payload: 47,
  DoubleVector: 48,
  LayerOffsetVector: 49,
  StringVector: 50,
  ValueBlock: 51,
  Value: 52,
  UnregisteredValue: 53,
  UnregisteredValueListOp: 54,
  PayloadListOp: 55,
  PathExpression: 57,
  Relocates: 58,
  Spline: 59,
  AnimationBlock: 60,
} as const;
