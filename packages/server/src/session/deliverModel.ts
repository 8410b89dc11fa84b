import { stat } from 'node:fs/promises';
import { arBudgetOnWire, conversionStatsOnWire, storeysOnWire } from '@arsession/convert';
import type { ConvertedModel } from '../jobs/ConversionJobs.js';
import type { ServerContext } from '../app/ServerContext.js';
import { quickLookFileOf } from '../derived/derivedFiles.js';
import { contentDisposition, deliveredName } from '../files/downloadName.js';
import { hashFile } from '../files/hashFile.js';
import type { UploadedFile } from '../form/readMultipartForm.js';
import { round } from '../placement/poseJson.js';
import { compileReality } from '../reality/compileReality.js';
import type { AssetInfo } from '../records/AssetInfo.js';
import type { QuickLook } from '../records/Placement.js';
import type { SessionFile, StagedFile, StoredAsset } from '../store/SessionStore.js';
import type { ModelFiles } from './ModelFiles.js';
import type { SessionStaging } from './SessionStaging.js';
import { stagePartFiles } from './stagePartFiles.js';

/** One uploaded model of a session, converted (or reused) and its files staged. */
export interface SessionModel {
  upload: UploadedFile;
  result: ConvertedModel;
  /** Its files, staged: the USDZ, the GLB, and the parts and element records when it has them. */
  files: ModelFiles;
  /** What the conversion cache knows it by: its bytes' SHA-256, and its share of the budget when the session has several models. */
  cacheKey: string;
  /** Converted for this request, not reused: the conversion cache keeps it once the session is committed. */
  converted: boolean;
}

/** What one model adds to its session: its files, and the asset the detail record shows. */
export interface DeliveredModel {
  files: SessionFile[];
  asset: StoredAsset;
}

/** What {@link deliverModel} needs of the session around the model. */
export interface DeliveryContext {
  staging: SessionStaging;
  /** How AR Quick Look anchors the session's packages. */
  quickLook: QuickLook;
  /** Where the placement ties the session to the room, in this model's own frame (see `placementPoint`). */
  placedAt: readonly number[];
}

/**
 * A converted model as its session delivers it: the USDZ and the GLB, a Reality file when a
 * compiler is configured, its parts and element records when it has them, each a file of the
 * session with the name a download gets, and the asset the detail record shows of it.
 *
 * @example
 * ```ts
 * const { files, asset } = await deliverModel(ctx, model, 0, { staging, quickLook, placedAt });
 * ```
 */
export async function deliverModel(ctx: ServerContext, model: SessionModel, order: number, at: DeliveryContext): Promise<DeliveredModel> {
  const { upload, result } = model;
  const delivered = (
    staged: StagedFile,
    contentType: string,
    written: { bytes: number; sha256: string },
    extension: string,
  ): SessionFile => ({
    name: staged.name,
    contentType,
    bytes: written.bytes,
    sha256: written.sha256,
    downloadName: contentDisposition(deliveredName(upload.name, extension)),
  });
  const usdz = delivered(model.files.usdz, 'model/vnd.usdz+zip', { bytes: result.usdzFileBytes, sha256: result.usdzFileSha256 }, 'usdz');
  const glb = delivered(model.files.glb, 'model/gltf-binary', { bytes: result.glbFileBytes, sha256: result.glbFileSha256 }, 'glb');
  const made = await makeReality(ctx, model.files.usdz.from, at.staging, order, upload.name);
  const reality = made && 'file' in made ? made.file : undefined;
  const { parts: archive, elements: elementsFile } = model.files;
  const parts = archive && result.parts && (await stagePartFiles(at.staging, order, archive, result.parts, upload.name, at.placedAt));
  const records = elementsFile && result.elements && delivered(elementsFile, 'application/gzip', result.elements, 'elements.json.gz');
  const info = {
    ...assetInfo(model, usdz, glb, reality),
    parts: parts?.stored ?? null,
    element_records: records ? { file: records.name, bytes: records.bytes, sha256: records.sha256, count: result.elements!.count } : null,
  };
  // A compiler configured but failing is said on the asset: reality_url null alone reads as "not configured".
  if (made && 'failed' in made)
    info.warnings = [
      ...info.warnings,
      {
        code: 'reality_failed',
        message: 'the Reality compiler (ARSESSION_REALITY_COMPILER) failed on this model; it is offered as USDZ only',
      },
    ];
  // Its Quick Look package and the page's preview are made when first asked for (derived/).
  const quick = quickLookFileOf(order, usdz.name, at.quickLook, result.anchorRefusal);
  return {
    files: [usdz, glb, ...(reality ? [reality] : []), ...(parts?.files ?? []), ...(records ? [records] : [])],
    asset: { order, sourceName: upload.name, info: { ...info, quick_look: quick } },
  };
}

/** What the detail record shows of one model. */
function assetInfo(
  { upload, result }: SessionModel,
  usdz: SessionFile,
  glb: SessionFile,
  reality: SessionFile | undefined,
): Omit<AssetInfo, 'quick_look'> {
  // The counts under the names the CLI's --json uses too (the detail record shows four of them).
  const { triangles, mesh_nodes, draw_calls, elements, triangles_without_element } = conversionStatsOnWire(result.stats);
  return {
    format: result.format,
    usdz_delivery: result.delivery,
    preferred_format: reality ? 'reality' : 'usdz',
    usdz_file: usdz.name,
    glb_file: glb.name,
    reality_file: reality?.name ?? null,
    source_bytes: upload.bytes,
    usdz_bytes: usdz.bytes,
    usdz_sha256: usdz.sha256,
    glb_bytes: glb.bytes,
    glb_sha256: glb.sha256,
    triangles,
    mesh_nodes,
    draw_calls,
    elements,
    triangles_without_element,
    bounds: { min: round(result.bounds.min), max: round(result.bounds.max) },
    offset: result.offset,
    warnings: result.warnings,
    ar_budget: result.budget ? arBudgetOnWire(result.budget) : null,
    ...(result.doorOpenings && { door_openings: result.doorOpenings.length }),
    storeys: storeysOnWire(result.storeys ?? []),
  };
}

/**
 * The Reality file of one asset, when an external compiler is configured: compiled from the
 * asset's USDZ (`usdzPath`) into a staged file of its own; `failed` when the compiler did not
 * make one; undefined when none is configured.
 */
async function makeReality(
  ctx: ServerContext,
  usdzPath: string,
  staging: SessionStaging,
  order: number,
  sourceName: string,
): Promise<{ file: SessionFile } | { failed: string } | undefined> {
  const command = ctx.config.realityCompiler;
  if (!command) return undefined;
  // Staged before it exists, so that a failure anywhere below still removes what the compiler left.
  const file = staging.stage(`${order}.reality`);
  const done = await compileReality(command, usdzPath, file.from, { timeoutMs: ctx.config.conversionTimeoutSeconds * 1000 });
  const size = done.ok
    ? await stat(file.from).then(
        (s) => s.size,
        () => 0,
      )
    : 0;
  if (!done.ok || size === 0) {
    const problem = done.ok ? 'empty output' : done.message;
    ctx.log.warn({ sourceName, problem }, 'reality compiler failed; the asset is offered as USDZ only');
    await staging.unstage(file);
    return { failed: problem };
  }
  return {
    file: {
      name: file.name,
      contentType: 'model/vnd.reality',
      bytes: size,
      sha256: await hashFile(file.from),
      downloadName: contentDisposition(deliveredName(sourceName, 'reality')),
    },
  };
}
