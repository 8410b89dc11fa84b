import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { anchorUsdz, UsdzPackageError, type UsdzAnchoring } from '@arsession/convert';
import { createPose, invertPose, type Vec3 } from '@arsession/geometry';
import { contentDisposition, deliveredName } from '../files/downloadName.js';
import type { QuickLookFile } from '../records/AssetInfo.js';
import type { QuickLook } from '../records/Placement.js';
import type { SessionFile, StagedFile } from '../store/SessionStore.js';
import type { SessionStaging } from './SessionStaging.js';

/** One model's delivered USDZ, and where its frame stands against the session's first model's. */
export interface QuickLookModel {
  order: number;
  sourceName: string;
  usdz: StagedFile;
  usdzFile: SessionFile;
  /** model_frame.offset of this model, and of the first one (the placement's frame). */
  offset: Vec3;
  primaryOffset: Vec3;
}

/** The printed reference image of a by_refimage session, as uploaded. */
export interface QuickLookImage {
  path: string;
  mimeType: 'image/png' | 'image/jpeg';
}

/**
 * An asset's package for AR Quick Look: its delivered USDZ with the session's anchoring around the
 * model ({@link anchorUsdz}), the model placed as the detail record's placement says relative to
 * the anchor, staged as `<order>.quicklook.usdz`. When the placement cannot be anchored (`none`),
 * or the package anchors itself already, the plain USDZ serves, and the reason is given.
 *
 * @example
 * ```ts
 * const { info, file } = await quickLookPackage(staging, model, quickLookOf(placement), image);
 * ```
 */
export async function quickLookPackage(staging: SessionStaging, model: QuickLookModel, quickLook: QuickLook, image: QuickLookImage | undefined): Promise<{ info: QuickLookFile; file?: SessionFile }> {
  const plain = (reason: string): { info: QuickLookFile } => ({
    info: { file: model.usdzFile.name, bytes: model.usdzFile.bytes, sha256: model.usdzFile.sha256, anchoring: 'none', reason },
  });
  if (quickLook.anchoring === 'none') return plain(quickLook.reason);
  const anchoring: UsdzAnchoring = quickLook.anchoring === 'plane'
    ? { type: 'plane', alignment: quickLook.alignment }
    : { type: 'image', image: { data: new Uint8Array(await readFile(image!.path)), mimeType: image!.mimeType }, physicalWidth: quickLook.physical_width };
  // A point of this model's delivered frame, in the first model's (where the placement is), then in the anchor's.
  const { frame } = quickLook;
  const anchorFromPrimary = invertPose(createPose(frame.position as Vec3, frame.rotation as [number, number, number, number])).matrix;
  const shift = [0, 1, 2].map((k) => model.offset[k]! - model.primaryOffset[k]!);
  const modelToAnchor = Array.from(anchorFromPrimary);
  for (let r = 0; r < 3; r++) modelToAnchor[12 + r]! += anchorFromPrimary[r]! * shift[0]! + anchorFromPrimary[4 + r]! * shift[1]! + anchorFromPrimary[8 + r]! * shift[2]!;
  let parts: Uint8Array[];
  try {
    parts = anchorUsdz(new Uint8Array(await readFile(model.usdz.from)), { anchoring, modelToAnchor });
  } catch (err) {
    if (err instanceof UsdzPackageError) return plain(err.message);
    throw err;
  }
  const staged = staging.stage(`${model.order}.quicklook.usdz`);
  await writeFile(staged.from, parts);
  const hash = createHash('sha256');
  let bytes = 0;
  for (const p of parts) {
    hash.update(p);
    bytes += p.length;
  }
  const sha256 = hash.digest('hex');
  return {
    info: { file: staged.name, bytes, sha256, anchoring: quickLook.anchoring, reason: null },
    file: { name: staged.name, contentType: 'model/vnd.usdz+zip', bytes, sha256, downloadName: contentDisposition(deliveredName(model.sourceName, 'usdz')) },
  };
}
