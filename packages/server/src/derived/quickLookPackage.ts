import { anchorUsdz, type UsdzAnchoring } from '@arsession/convert';
import { createPose, invertPose, type Vec3 } from '@arsession/geometry';
import type { QuickLook } from '../records/Placement.js';

/** A printed reference image as the session holds it. */
export interface ReferenceImage {
  data: Uint8Array;
  mimeType: 'image/png' | 'image/jpeg';
}

/** What an asset's AR Quick Look package is made from. */
export interface QuickLookInputs {
  /** The asset's delivered USDZ. */
  usdz: Uint8Array;
  /** model_frame.offset of this model, and of the first one (the placement's frame). */
  offset: Vec3;
  primaryOffset: Vec3;
  /** How the session anchors (never `none`: then the plain USDZ serves). */
  quickLook: Exclude<QuickLook, { anchoring: 'none' }>;
  /** The printed image, for image anchoring. */
  image?: ReferenceImage;
}

/**
 * An asset's package for AR Quick Look: its delivered USDZ with the session's anchoring around the
 * model ({@link anchorUsdz}), the model placed as the detail record's placement says relative to
 * the anchor. A package the converter judged unanchorable (`anchorRefusal`) never gets here.
 *
 * @example
 * ```ts
 * const parts = quickLookPackage({ usdz, offset, primaryOffset: offset, quickLook: placement.quick_look });
 * ```
 */
export function quickLookPackage(inputs: QuickLookInputs): Uint8Array[] {
  const { quickLook } = inputs;
  const anchoring: UsdzAnchoring =
    quickLook.anchoring === 'plane'
      ? { type: 'plane', alignment: quickLook.alignment }
      : { type: 'image', image: inputs.image!, physicalWidth: quickLook.physical_width };
  // A point of this model's delivered frame, in the first model's (where the placement is), then in the anchor's.
  const { frame } = quickLook;
  const anchorFromPrimary = invertPose(createPose(frame.position as Vec3, frame.rotation as [number, number, number, number])).matrix;
  const shift = [0, 1, 2].map((k) => inputs.offset[k]! - inputs.primaryOffset[k]!);
  const modelToAnchor = Array.from(anchorFromPrimary);
  for (let r = 0; r < 3; r++)
    modelToAnchor[12 + r]! +=
      anchorFromPrimary[r]! * shift[0]! + anchorFromPrimary[4 + r]! * shift[1]! + anchorFromPrimary[8 + r]! * shift[2]!;
  return anchorUsdz(inputs.usdz, { anchoring, modelToAnchor });
}
