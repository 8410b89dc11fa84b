import type { WarningCode } from './warningCodes.js';
import type { Bounds, Vec3 } from '@arsession/geometry';
import type { ModelFormat } from '../format/detectFormat.js';
import type { CategoryFigures, MeshStray } from '../budget/ArBudget.js';

/**
 * The one plain-data intermediate between readers and writers. Everything is in the delivered
 * frame: right-handed, Y-up, metres, with any large model offset already removed (see `offset`).
 * No classes, no hidden state: a `SceneData` can be posted to a worker or written to disk as is.
 */
export interface SceneData {
  source: SceneSource;
  /** Transform hierarchy; `parent` indexes this array (−1 for roots), parents come before children. */
  nodes: SceneNode[];
  meshes: SceneMesh[];
  materials: SceneMaterial[];
  textures: SceneTexture[];
  /**
   * Where the delivered frame sits in the submitted model's (Y-up) frame, in float64 metres: a
   * model point `p` (after z-up→y-up) lands in the delivered files at `p − offset`.
   */
  offset: Vec3;
  /** Bounds of all geometry in the delivered frame. */
  bounds: Bounds;
  stats: SceneStats;
  warnings: SceneWarning[];
  /**
   * Set when the reader simplified geometry as it streamed in, to hold a huge model in bounded
   * memory, or simplified it before placing it (the AR budget's first stage, `StreamReduction`):
   * the full model's triangles and draw calls, and what the reduction moved, in metres.
   */
  streamReduced?: StreamReducedFigures;
}

/** What a reader's stream reduction did (see {@link SceneData.streamReduced}). */
export interface StreamReducedFigures {
  sourceTriangles: number;
  /** Draw calls the full model makes (placements of geometry): some may be simplified away. */
  sourceDrawCalls: number;
  /** Elements (products with geometry) the full model draws: its mesh nodes when read in full. */
  sourceElements: number;
  reducedGeometries: number;
  maxDeviation: number;
  maxUncovered: number;
  /** What each budget category gave up in the reduction, envelope first. */
  categories: CategoryFigures[];
  /**
   * What the reduction did to each node's element, by node (one entry a category): where a part of
   * the scene takes its figures from, rather than the whole's. Undefined for a node left as read.
   * Absent when the reader could not tell (a part then states the whole's figures).
   */
  nodeStrays?: Array<MeshStray[] | undefined>;
}

/** What the scene was read from. */
export interface SceneSource {
  format: ModelFormat;
  /** IFC schema, glTF generator, USD layer name: whatever identifies the producer. */
  schema?: string;
  generator?: string;
}

/** A transform node. */
export interface SceneNode {
  name: string;
  parent: number;
  /** Local transform, column-major 4×4. */
  matrix: Float64Array;
  /** Meshes drawn at this node (indices into `SceneData.meshes`). */
  meshes: number[];
  /** Identity of the element this node stands for (IFC class, GlobalId, Name, storey, …). */
  metadata: Record<string, string>;
}

/**
 * One draw: a triangle list with a single material. Its arrays may be views into buffers shared
 * with other meshes (a reader carves many small arrays from one block): honour `byteOffset`, and
 * copy an array (`.slice()`) before transferring its buffer to another thread or cloning it alone.
 */
export interface SceneMesh {
  name: string;
  /** xyz per vertex. */
  positions: Float32Array;
  /** xyz per vertex, unit length; absent when the source had none. */
  normals?: Float32Array;
  /** uv per vertex, glTF convention (v down); writers flip for USD. */
  uvs?: Float32Array;
  /** Three vertex indices per triangle, counter-clockwise front faces. */
  indices: Uint32Array;
  /** Index into `SceneData.materials`. */
  material: number;
  /**
   * Elements merged into this mesh, as triangle ranges, so element identity survives merging.
   * Absent for a mesh that stands for one element only.
   */
  elements?: SceneElementRange[];
}

/** A run of triangles of a merged mesh that came from one element. */
export interface SceneElementRange {
  firstTriangle: number;
  triangleCount: number;
  metadata: Record<string, string>;
}

/** A material at UsdPreviewSurface level. Colours are linear RGB. */
export interface SceneMaterial {
  name: string;
  baseColor: [number, number, number];
  opacity: number;
  metallic: number;
  roughness: number;
  emissive: [number, number, number];
  doubleSided: boolean;
  /** Alpha below this is cut away (glTF MASK); absent for blend or opaque. */
  alphaCutoff?: number;
  /** Alpha blends (glTF BLEND): the base colour texture's alpha drives opacity even when `opacity` is 1. */
  alphaBlend?: boolean;
  /** RGB times `baseColor`; its alpha times `opacity` is the opacity when `alphaBlend` or `alphaCutoff` says so. */
  baseColorTexture?: TextureRef;
  normalTexture?: TextureRef & { scale: number };
  occlusionTexture?: ChannelTextureRef;
  /** RGB times `emissive`. */
  emissiveTexture?: TextureRef;
  /** One channel times `metallic` (glTF: B of the metallic-roughness texture). */
  metallicTexture?: ChannelTextureRef;
  /** One channel times `roughness` (glTF: G of the metallic-roughness texture). */
  roughnessTexture?: ChannelTextureRef;
  /** Opacity from one channel of a texture (times `opacity`), where it is not the base colour's alpha (USD). */
  opacityTexture?: ChannelTextureRef;
}

/** A material's use of a texture. */
export interface TextureRef {
  texture: number;
  /** Wrap modes in s and t; default repeat. */
  wrap?: readonly ['repeat' | 'clamp' | 'mirror', 'repeat' | 'clamp' | 'mirror'];
}

/** A material's use of one channel of a texture. */
export interface ChannelTextureRef extends TextureRef {
  channel: 'r' | 'g' | 'b' | 'a';
}

/** An image, passed through as it came (never re-encoded unless it had to be transcoded). */
export interface SceneTexture {
  name: string;
  mimeType: 'image/png' | 'image/jpeg';
  data: Uint8Array;
}

/** Counts a client or an operator wants to see. */
export interface SceneStats {
  nodes: number;
  meshNodes: number;
  meshes: number;
  triangles: number;
  vertices: number;
  materials: number;
  textures: number;
}

/** Something the reader changed or dropped; never silent. */
export interface SceneWarning {
  code: WarningCode;
  message: string;
}
