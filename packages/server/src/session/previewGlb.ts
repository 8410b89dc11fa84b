import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { appendToGlb } from '@arsession/convert';
import type { Bounds, Vec3 } from '@arsession/geometry';
import { contentDisposition } from '../files/downloadName.js';
import { imageSize } from '../page/imageSize.js';
import { placementOverlay } from '../page/placementOverlay.js';
import type { Placement } from '../records/Placement.js';
import type { SessionFile, StagedFile } from '../store/SessionStore.js';
import type { QuickLookImage } from './quickLookPackage.js';
import type { SessionStaging } from './SessionStaging.js';

/** The name of a session's preview among its files. */
export const PREVIEW_FILE = 'preview.glb';

/** The session's models as the preview needs them: the first one's GLB, and every model's bounds and offset. */
export interface PreviewModels {
  glb: StagedFile;
  models: ReadonlyArray<{ bounds: Bounds; offset: Vec3 }>;
}

/**
 * The session page's 3D preview: the first model's GLB with the placement drawn over it
 * ({@link placementOverlay}: the anchor frame, the footprint, the door's outline and normal, the
 * anchor's shape, the printed image), staged as `preview.glb`. The marks are appended to the GLB,
 * not re-encoded with it, so making it costs a copy of the model's bytes.
 *
 * @example
 * ```ts
 * const file = await previewGlb(staging, placement, { glb: staged, models }, image);
 * ```
 */
export async function previewGlb(staging: SessionStaging, placement: Placement, { glb, models }: PreviewModels, image: QuickLookImage | undefined): Promise<SessionFile> {
  // Every model's bounds in the first one's frame (where the placement is stated).
  const first = models[0]!.offset;
  const bounds: Bounds = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  for (const m of models) {
    for (let k = 0; k < 3; k++) {
      const shift = m.offset[k]! - first[k]!;
      bounds.min[k] = Math.min(bounds.min[k]!, m.bounds.min[k]! + shift);
      bounds.max[k] = Math.max(bounds.max[k]!, m.bounds.max[k]! + shift);
    }
  }
  const imageBytes = image && new Uint8Array(await readFile(image.path));
  const size = imageBytes && imageSize(imageBytes);
  const shapes = placementOverlay(placement, { bounds, ...(imageBytes && size && { image: { data: imageBytes, mimeType: image!.mimeType, ...size } }) });
  const parts = appendToGlb(new Uint8Array(await readFile(glb.from)), shapes, { name: 'placement' });
  const staged = staging.stage(PREVIEW_FILE);
  await writeFile(staged.from, parts);
  const hash = createHash('sha256');
  let bytes = 0;
  for (const p of parts) {
    hash.update(p);
    bytes += p.length;
  }
  return { name: staged.name, contentType: 'model/gltf-binary', bytes, sha256: hash.digest('hex'), downloadName: contentDisposition(PREVIEW_FILE) };
}
