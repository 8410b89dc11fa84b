// One USD layer as plain data: what our writers put in a package, independent of the file format.
// describeLayer builds it from SceneData; writeUsdaLayer renders it as text, writeUsdcLayer as a
// binary crate. Points, normals and indices are the scene's own typed arrays, never copies; the
// arrays a layer adds (extents, face sizes, v-flipped texture coordinates) are made once per mesh.

/** A USD value with its type name, as an attribute or metadatum holds it. */
export type UsdValue =
  | { type: 'bool'; value: boolean }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'double'; value: number }
  | { type: 'token' | 'string' | 'asset'; value: string }
  | { type: 'float2' | 'float3' | 'float4' | 'color3f' | 'normal3f'; value: readonly number[] }
  /** Row-major rows of USD's row-vector convention, i.e. our column-major matrices as they are. */
  | { type: 'matrix4d'; value: ArrayLike<number> }
  | { type: 'token[]' | 'string[]'; value: readonly string[] }
  | { type: 'int[]'; value: ArrayLike<number> }
  /** Packed x, y, z (or u, v) per element. */
  | { type: 'float3[]' | 'point3f[]' | 'normal3f[]'; value: Float32Array }
  | { type: 'texCoord2f[]'; value: Float32Array };

/** Every type name a {@link UsdValue} can have. */
export type UsdTypeName = UsdValue['type'];

/** An attribute: a value, a connection to another attribute, or only a declaration (an output). */
export interface UsdAttribute {
  kind: 'attribute';
  name: string;
  type: UsdTypeName;
  value?: UsdValue;
  uniform?: boolean;
  /** Path of the attribute this one is connected to (`name.connect = <…>`). */
  connect?: string;
  /** Primvar interpolation (`vertex`, …). */
  interpolation?: string;
}

/** A relationship with one target. */
export interface UsdRelationship {
  kind: 'relationship';
  name: string;
  target: string;
}

export type UsdProperty = UsdAttribute | UsdRelationship;

/** A prim: `def` unless it says otherwise. */
export interface UsdPrim {
  name: string;
  /** Its schema (`Xform`, `Mesh`); empty for an `over` that only changes a prim defined elsewhere. */
  typeName: string;
  /**
   * `class` for prims that are only there to be referenced (instancing prototypes): not drawn;
   * `over` for opinions on a prim defined elsewhere (inside a variant).
   */
  specifier?: 'def' | 'class' | 'over';
  /** `false` takes the prim and everything under it off the stage. */
  active?: boolean;
  /** Its variant sets, each with the variant selected in this layer. */
  variantSets?: UsdVariantSet[];
  /** Shares its referenced subtree with every other instance of it (USD scenegraph instancing). */
  instanceable?: boolean;
  /** Prims of this layer it references (`prepend references = </Path>`), by path. */
  references?: string[];
  kind?: string;
  /** Prepended API schemas. */
  apiSchemas?: string[];
  /** `customData`: string, string[] or int[] values, keys sorted (the order USD's dictionaries keep). */
  customData?: Record<string, UsdValue>;
  properties: UsdProperty[];
  children: UsdPrim[];
}

/**
 * A variant set: named variants, each holding prims (usually `over`s of the owner's children) that
 * apply only while it is selected.
 */
export interface UsdVariantSet {
  name: string;
  /** The variant this layer selects; one of `variants`. */
  selection: string;
  variants: Array<{ name: string; children: UsdPrim[] }>;
}

/** A layer with one root prim, which is also its default prim. */
export interface UsdLayer {
  /** `customLayerData`, string values, keys sorted. */
  customLayerData: Record<string, string>;
  metersPerUnit: number;
  upAxis: 'Y' | 'Z';
  root: UsdPrim;
}
