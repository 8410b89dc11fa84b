import type { Bounds } from '@arsession/geometry';
import type { Placement, PlacementWarning } from '../records/Placement.js';
import { diagonalOf, distanceOutside, openingCentre } from './distanceOutside.js';

/** Options of {@link plausibilityWarnings}. */
export interface PlausibilityOptions {
  /** A door opening farther than this outside the model's bounds is suspect (m). */
  openingMargin: number;
  /** An anchor farther than this, or than the model's own diagonal, outside its bounds is suspect (m). */
  anchorMargin: number;
  /** A printed image narrower or wider than these is suspect (m). */
  imageWidth: readonly [number, number];
}

/** Defaults of {@link plausibilityWarnings}: a door within 2 m of the building, an anchor within 10 m, an image from 2 cm to 5 m. */
export const PLAUSIBILITY_DEFAULTS: Readonly<PlausibilityOptions> = { openingMargin: 2, anchorMargin: 10, imageWidth: [0.02, 5] };

/**
 * Numbers a request sent that are valid but look like mistakes, said as warnings on the placement
 * (the session is made): a door opening or an anchor far from the model (a frame or unit mix-up),
 * an image width that no print has, a rectangle's short side longer than its long one. `bounds`
 * are the model's, in the delivered frame, where the placement is.
 *
 * @example
 * ```ts
 * plausibilityWarnings(placement, { min: [-5, 0, -5], max: [5, 6, 5] }); // → [] or [{ code: 'anchor_far_from_model', … }]
 * ```
 */
export function plausibilityWarnings(placement: Placement, bounds: Bounds, options: Partial<PlausibilityOptions> = {}): PlacementWarning[] {
  const { openingMargin, anchorMargin, imageWidth } = { ...PLAUSIBILITY_DEFAULTS, ...options };
  const warnings: PlacementWarning[] = [];
  const far = (p: readonly number[]) => distanceOutside(bounds, p);
  const anchorLimit = Math.max(anchorMargin, diagonalOf(bounds));
  const metres = (v: number) => `${+v.toFixed(1)} m`;
  if (placement.method === 'by_scan') {
    const centre = openingCentre(placement.corners);
    if (far(centre) > openingMargin)
      warnings.push({
        code: 'opening_outside_model',
        message:
          `the door opening's centre is ${metres(far(centre))} outside the model's bounds; doors lie on the ` +
          `model's walls (are the corners in the model's frame and in metres, with the right coordinate_system?)`,
      });
  }
  if (placement.method === 'by_virtual_anchor' || placement.method === 'by_refimage') {
    const d = far(placement.pose.position);
    if (d > anchorLimit)
      warnings.push({
        code: 'anchor_far_from_model',
        message: `the anchor is ${metres(d)} outside the model's bounds (are its coordinates in the model's frame and in metres?)`,
      });
  }
  if (placement.method === 'by_refimage' && (placement.physical_width < imageWidth[0] || placement.physical_width > imageWidth[1])) {
    warnings.push({
      code: 'implausible_image_width',
      message:
        `reference_image.physical_width is ${placement.physical_width} m; a printed ` +
        `image is ${imageWidth[0]}–${imageWidth[1]} m wide (is it in centimetres?)`,
    });
  }
  if (placement.method === 'by_virtual_anchor' && placement.anchor_type === 'rectangle_short_side' && placement.width > placement.height) {
    warnings.push({
      code: 'short_side_longer',
      message:
        `virtual_anchor.width ${placement.width} m, along short_side_direction, is larger than height ` +
        `${placement.height} m: the direction runs along the long side (swap width and height, or turn the direction)`,
    });
  }
  return warnings;
}
