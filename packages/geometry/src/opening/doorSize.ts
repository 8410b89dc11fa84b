/**
 * The sizes a door opening can have, in metres. Shared by corner validation and door detection.
 * Bounds are generous on purpose: they reject only what no door is (a 5 cm slit, a 12 m hall),
 * from narrow closet doors (0.4 m) to double and sliding doors (4 m) and tall glazed entries.
 */
export const DOOR_SIZE_LIMITS = {
  minWidth: 0.4,
  maxWidth: 4.0,
  minHeight: 1.2,
  maxHeight: 4.0,
} as const;

/** Size limits of a door opening (metres). */
export interface DoorSizeLimits {
  minWidth: number;
  maxWidth: number;
  minHeight: number;
  maxHeight: number;
}
