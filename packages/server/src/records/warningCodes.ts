import { WARNING_CODES, type WarningCode } from '@arsession/convert';

/** Warnings the server itself adds to a delivered model (beside the conversion's, {@link WARNING_CODES}). */
export const SERVER_WARNING_CODES = {
  reality_failed: 'the configured Reality compiler (ARSESSION_REALITY_COMPILER) failed on this model; it is offered as USDZ only',
} as const;

/** Every code an asset's warnings can carry, with what it means: the OpenAPI enum. */
export const ASSET_WARNING_CODES: Readonly<Record<AssetWarningCode, string>> = { ...WARNING_CODES, ...SERVER_WARNING_CODES };

/** A code an asset's warning carries. */
export type AssetWarningCode = WarningCode | keyof typeof SERVER_WARNING_CODES;

/** One warning of a delivered model, as the detail record lists it. */
export interface AssetWarning {
  code: AssetWarningCode;
  message: string;
}

/** What a placement's warning says: the request was accepted, but one of its numbers looks like a mistake. */
export const PLACEMENT_WARNING_CODES = {
  opening_outside_model: 'the door opening lies well outside the model (corners in another frame or unit?)',
  anchor_far_from_model: 'the anchor lies far from the model (a point in another frame or unit?)',
  implausible_image_width: "the reference image's physical_width is not a printable size in metres (centimetres sent as metres?)",
  short_side_longer: "the rectangle's width (along short_side_direction) is larger than its height: the direction runs along the long side",
} as const;

/** A code a placement's warning carries. */
export type PlacementWarningCode = keyof typeof PLACEMENT_WARNING_CODES;
