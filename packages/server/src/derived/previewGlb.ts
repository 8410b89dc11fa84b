import { appendToGlb, storeyVariants } from '@arsession/convert';
import type { Bounds, Vec3 } from '@arsession/geometry';
import { modelsBounds } from '../page/modelsBounds.js';
import { imageSize } from '../page/imageSize.js';
import { placementOverlay } from '../page/placementOverlay.js';
import type { Placement } from '../records/Placement.js';
import type { ReferenceImage } from './quickLookPackage.js';

/** What the session page's preview is made from. */
export interface PreviewInputs {
  /** The first model's GLB. */
  glb: Uint8Array;
  placement: Placement;
  /** Every model's bounds and offset (the placement is stated in the first one's frame). */
  models: ReadonlyArray<{ bounds: Bounds; offset: Vec3 }>;
  /** The printed image of a by_refimage session, drawn where it hangs. */
  image?: ReferenceImage;
}

/**
 * The session page's 3D preview: the first model's GLB, each storey a variant to show alone
 * ({@link storeyVariants}), with the placement drawn over it
 * ({@link placementOverlay}: the anchor frame, the footprint, the door's outline and normal, the
 * anchor's shape, the printed image), unless the placement lies far outside the models (then the
 * preview shows the model alone, and the page says where the placement is). The marks are appended to the GLB, not re-encoded with it,
 * so making it costs a copy of the model's bytes.
 *
 * @example
 * ```ts
 * const parts = previewGlb({ glb, placement, models: [{ bounds, offset }] });
 * ```
 */
export function previewGlb({ glb, placement, models, image }: PreviewInputs): Uint8Array[] {
  const bounds = modelsBounds(models);
  const size = image && imageSize(image.data);
  const shapes = placementOverlay(placement, { bounds, ...(image && size && { image: { ...image, ...size } }) });
  // Each storey a variant the page can show alone (a copy of the model's bytes, made once a session).
  const withStoreys = storeyVariants(glb);
  return appendToGlb(withStoreys.length === 1 ? withStoreys[0]! : Buffer.concat(withStoreys), shapes, { name: 'placement' });
}
