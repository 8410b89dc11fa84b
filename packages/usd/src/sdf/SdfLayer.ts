// One USD layer as its file says it, before composition: the specs (prims, properties, variant
// sets, variants) by path, each with its fields. Both readers produce exactly this — the crate
// reader (`.usdc`) and the text parser (`.usda`) — so composition never knows which format a
// layer came in. Field names are USD's own (`specifier`, `typeName`, `primChildren`, `default`,
// `timeSamples`, `connectionPaths`, `targetPaths`, `references`, `variantSelection`, …).

/** A list op, USD's edit of an inherited list: either explicit items, or edits to what is below. */
export interface SdfListOp<T> {
  /** Present when the list is set outright (`references = [...]`); the edits below are then empty. */
  explicit?: T[];
  prepended: T[];
  appended: T[];
  /** `add` (older files): appended when absent. */
  added: T[];
  deleted: T[];
  /** `reorder`: a preferred order, kept as data only. */
  ordered: T[];
}

/** A layer offset: time shift and scale of a sublayer, reference or payload. */
export interface SdfLayerOffset {
  offset: number;
  scale: number;
}

/** A reference or payload: an asset (empty for an internal one) and a prim in it (empty: its default prim). */
export interface SdfReference {
  assetPath: string;
  primPath: string;
  layerOffset: SdfLayerOffset;
}

/** Element types of numeric arrays, tuples and scalars, by USD type name without dimensions. */
export type SdfNumberType = 'bool' | 'uchar' | 'int' | 'uint' | 'int64' | 'uint64' | 'half' | 'float' | 'double' | 'timecode';

/**
 * A value as a layer holds it. Numbers of every width are JavaScript numbers (int64 beyond 2^53
 * loses precision, which no geometry needs); vectors, matrices and quaternions are flat number
 * lists; arrays are typed arrays of their elements' components.
 *
 * - `tuple.type`/`array.type` is USD's value type name (`float3`, `point3f`, `color3f`,
 *   `matrix4d`, `quatf`, `texCoord2f`, …); `size` is the number of components per element
 *   (1 for scalars, 3 for `float3`, 16 for `matrix4d`).
 * - Matrices are row-major, as USD writes them (its row-vector convention).
 * - Quaternions are `[x, y, z, w]` (imaginary first), whichever order the file used.
 */
export type SdfValue =
  | { kind: 'none' } // a value block (`None` in text): an opinion that there is no value
  | { kind: 'bool'; value: boolean }
  | { kind: 'number'; type: SdfNumberType; value: number }
  | { kind: 'token' | 'string' | 'asset'; value: string }
  | { kind: 'tuple'; type: string; value: number[] }
  | { kind: 'array'; type: string; size: number; value: Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array }
  | { kind: 'stringArray'; type: 'token[]' | 'string[]' | 'asset[]'; value: string[] }
  | { kind: 'dictionary'; value: Map<string, SdfValue> }
  | { kind: 'specifier'; value: 'def' | 'over' | 'class' }
  | { kind: 'variability'; value: 'varying' | 'uniform' }
  | { kind: 'permission'; value: 'public' | 'private' }
  | { kind: 'tokenList'; value: string[] } // token vector: primChildren, properties, variantChildren, …
  | { kind: 'pathList'; value: string[] } // path vector
  | { kind: 'stringList'; value: string[] } // string vector: subLayers
  | { kind: 'layerOffsets'; value: SdfLayerOffset[] } // subLayerOffsets
  | { kind: 'variantSelection'; value: Map<string, string> }
  | { kind: 'tokenListOp' | 'stringListOp' | 'pathListOp'; value: SdfListOp<string> }
  | { kind: 'intListOp'; value: SdfListOp<number> }
  | { kind: 'referenceListOp' | 'payloadListOp'; value: SdfListOp<SdfReference> }
  | { kind: 'payload'; value: SdfReference | undefined } // a single payload (crate 0.3–0.7 files)
  | { kind: 'timeSamples'; value: Map<number, SdfValue> }
  | { kind: 'unsupported'; type: string }; // a value we do not read (splines, path expressions, …)

/** What a spec is (USD's `SdfSpecType`). */
export type SdfSpecType =
  | 'pseudoRoot'
  | 'prim'
  | 'attribute'
  | 'relationship'
  | 'variantSet'
  | 'variant'
  | 'connection'
  | 'relationshipTarget'
  | 'expression'
  | 'mapper'
  | 'mapperArg';

/** A spec: its type and its fields by name. */
export interface SdfSpec {
  type: SdfSpecType;
  fields: Map<string, SdfValue>;
}

/**
 * A layer: specs by path text. Paths are absolute and written as USD writes them:
 * `/` (the pseudo-root, holding the layer's metadata), `/World/Geom` (prims),
 * `/World/Geom.points` (properties), `/World{shape=}` (a variant set),
 * `/World{shape=sphere}` and `/World{shape=sphere}Ball` (a variant and prims inside it).
 */
export interface SdfLayer {
  /** Where the layer came from (its name inside the package), for messages and asset paths. */
  identifier: string;
  specs: Map<string, SdfSpec>;
}
