import { UnsupportedFormatError } from '../errors/ConvertError.js';
import { detectFormat, zipEntryNames, type ModelFormat } from '../format/detectFormat.js';
import { MESH_NODE_LIMIT } from '../glb/checkMeshNodeLimit.js';
import { countMeshNodes } from '../glb/countMeshNodes.js';
import { readGlbJson } from '../glb/readGlbJson.js';
import { readIfcHeader } from '../ifc/readIfcHeader.js';

/** A quick look at a model file: what it is and how big, read without converting it. */
export interface ModelSummary {
  format: ModelFormat;
  bytes: number;
  /** IFC schema (`IFC2X3`, `IFC4`, …). */
  schema?: string;
  /** IFC authoring tool from the STEP header. */
  originatingSystem?: string;
  /** GLB facts from its JSON chunk. */
  glb?: {
    nodes: number;
    meshNodes: number;
    meshNodeLimit: number;
    withinMeshNodeLimit: boolean;
    extensionsUsed: string[];
    extensionsRequired: string[];
  };
  /** Zip entries of a USDZ or ifczip, in package order. */
  entries?: string[];
}

/** Options of {@link inspectModel}. */
export interface InspectModelOptions {
  /** Name used in error messages. */
  fileName?: string;
}

/**
 * Identifies a model by content and reads what its headers tell, without decoding geometry.
 * Throws {@link UnsupportedFormatError} for anything that is not IFC, GLB or USDZ.
 *
 * @example
 * ```ts
 * inspectModel(readFileSync('Box.glb')).glb?.meshNodes; // → 1
 * ```
 */
export function inspectModel(bytes: Uint8Array, options: InspectModelOptions = {}): ModelSummary {
  const format = detectFormat(bytes);
  if (!format) {
    throw new UnsupportedFormatError(
      `${options.fileName ?? 'the file'} is not an IFC (STEP), GLB (binary glTF 2.0) or USDZ model`,
      options.fileName === undefined ? {} : { fileName: options.fileName },
    );
  }
  const summary: ModelSummary = { format, bytes: bytes.length };
  if (format === 'ifc') {
    const header = readIfcHeader(bytes);
    if (header.schema) summary.schema = header.schema;
    if (header.originatingSystem) summary.originatingSystem = header.originatingSystem;
  } else if (format === 'glb') {
    const json = readGlbJson(bytes, options.fileName);
    const meshNodes = countMeshNodes(json, options.fileName);
    summary.glb = {
      nodes: Array.isArray(json.nodes) ? json.nodes.length : 0,
      meshNodes,
      meshNodeLimit: MESH_NODE_LIMIT,
      withinMeshNodeLimit: meshNodes <= MESH_NODE_LIMIT,
      extensionsUsed: json.extensionsUsed ?? [],
      extensionsRequired: json.extensionsRequired ?? [],
    };
  } else {
    summary.entries = zipEntryNames(bytes, 1000);
  }
  return summary;
}
