import { componentRef } from '@arsession/convert/schemas';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { closed, numbers, oneOf, orNull, stringEnum, vec3 } from './wireSchemaHelpers.js';
import { PLACEMENT_WARNING_CODES, type PlacementWarningCode } from './warningCodes.js';

// A session's placement, declared once: each schema here is the record's TypeScript type (its
// `Static`) and the OpenAPI component of the same name (`openapi/components.ts`). Field
// descriptions a name carries everywhere are added from `openapi/fieldDescriptions.ts`.

/** A rigid frame in the delivered frame: position, quaternion [x, y, z, w], column-major 4×4 (OpenAPI `Pose`). */
export const PoseOnWire = Type.Object(
  {
    position: vec3('metres, in the delivered frame'),
    rotation: numbers(4, 'unit quaternion [x, y, z, w]'),
    matrix: numbers(16, 'the same, as a column-major 4×4'),
  },
  { ...closed, description: 'A rigid frame in the delivered frame (right-handed, Y-up, metres).' },
);
/** A pose as the detail record shows it (see the schema of the same name). */
export type PoseOnWire = Static<typeof PoseOnWire>;
const pose = (description?: string) => componentRef('Pose', PoseOnWire, description);

/**
 * How AR Quick Look anchors the session's packages (each asset's `quick_look` file): Apple's
 * anchoring schema, with the anchor's frame in the delivered frame (origin at the anchor's centre,
 * +Y its normal; on an upright plane or an image +X level to the right and +Z down); or `none`
 * with the reason (then the packages open unanchored, as the plain USDZ does).
 */
export const QuickLook = oneOf(
  [
    Type.Object({ anchoring: Type.Literal('plane'), alignment: stringEnum(['horizontal', 'vertical']), frame: pose() }, closed),
    Type.Object(
      {
        anchoring: Type.Literal('image'),
        frame: pose(),
        physical_width: Type.Number({ description: 'printed width of the reference image (m)' }),
      },
      closed,
    ),
    Type.Object({ anchoring: Type.Literal('none'), reason: Type.String() }, closed),
  ],
  "How AR Quick Look anchors the session's packages (each asset's quick_look file): Apple's anchoring schema, with the " +
    "anchor's frame in the delivered frame (origin at the anchor's centre, +Y its normal; on an upright plane or an " +
    'image +X level to the right and +Z down); or none, with the reason.',
);
/** How AR Quick Look anchors a session's packages (see the schema of the same name). */
export type QuickLook = Static<typeof QuickLook>;

/** Numbers a request sent that are valid but look like mistakes (OpenAPI `PlacementWarnings`). */
export const PlacementWarnings = Type.Array(
  Type.Object(
    {
      code: stringEnum(
        Object.keys(PLACEMENT_WARNING_CODES) as PlacementWarningCode[],
        Object.entries(PLACEMENT_WARNING_CODES)
          .map(([code, meaning]) => `${code}: ${meaning}`)
          .join('; '),
      ),
      message: Type.String({ description: 'the same in words, with the figures sent' }),
    },
    closed,
  ),
  {
    description:
      'numbers the request sent that are valid but look like mistakes (a frame or unit mix-up); the session was made. Empty when none',
  },
);

/** by_plane as a method states it: the footprint anchor (bottom centre of every model's bounds) in the delivered frame. */
const ByPlane = Type.Object(
  { method: Type.Literal('by_plane'), anchor: pose("the footprint anchor: bottom centre of every model's bounds") },
  closed,
);

/** How by_scan mode 1 found its door: semantic or geometric, how sure, and the element when the model names it. */
const DoorDetection = Type.Object(
  {
    method: stringEnum(['semantic', 'geometric']),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    source: orNull(Type.Object({ id: Type.String(), name: Type.Optional(Type.String()) }, closed)),
  },
  { ...closed, description: 'how mode 1 found the door' },
);

/** by_scan as a method states it: the door opening, detected (mode 1) or given (mode 2), in the delivered frame. */
const ByScan = Type.Object(
  {
    method: Type.Literal('by_scan'),
    found: stringEnum(['detected', 'given']),
    corners: Type.Array(vec3('a corner'), {
      minItems: 4,
      maxItems: 4,
      description: "the opening [BL, BR, TR, TL] on the viewer's face of the wall",
    }),
    wall_normal: vec3('the wall normal, toward the viewer'),
    width: Type.Number({ description: 'clear width of the opening (m): the mean of its bottom and top edges' }),
    height: Type.Number({ description: 'clear height of the opening (m): the mean of its sides' }),
    frame: pose('origin at the bottom centre, x to the right, y up, z along the wall normal'),
    detection: Type.Optional(DoorDetection),
  },
  closed,
);

/** A virtual anchor of one kind as a method states it: its frame and its sizes (metres; the corner's angle in degrees). */
const anchor = <const K extends string, S extends Record<string, TSchema>>(kind: K, sizes: S) =>
  Type.Object(
    {
      method: Type.Literal('by_virtual_anchor'),
      anchor_type: Type.Literal(kind),
      pose: pose(),
      correction_deg: Type.Number({ description: "how far the sent direction was turned into the anchor's plane (degrees)" }),
      ...sizes,
    },
    closed,
  );
const RectangleAnchor = anchor('rectangle_short_side', { width: Type.Number(), height: Type.Number() });
const SegmentAnchor = anchor('segment_directional', { length: Type.Number(), placement_source: stringEnum(['model_surface']) });
const CircleAnchor = anchor('circle_directional', { radius: Type.Number() });
const CornerAnchor = anchor('corner_directional', { opening_angle_deg: Type.Number() });

/** by_refimage as a method states it: the printed image's frame and its width. */
const ByRefimage = Type.Object(
  {
    method: Type.Literal('by_refimage'),
    pose: pose("the printed image's frame in ARKit's image-anchor convention: y out of the image, x to its right, z to its bottom"),
    physical_width: Type.Number(),
    correction_deg: Type.Number(),
  },
  closed,
);

/** What the detail record adds to every placement: how Quick Look anchors it, and its warnings. */
const OnWire = {
  quick_look: orNull(componentRef('QuickLook', QuickLook)),
  warnings: componentRef('PlacementWarnings', PlacementWarnings),
};
const onWire = <T extends Record<string, TSchema>>(record: { properties: T }) => Type.Object({ ...record.properties, ...OnWire }, closed);

/** The detail record's by_plane placement (OpenAPI `ByPlanePlacement`). */
export const ByPlanePlacementOnWire = onWire(ByPlane);
/** The detail record's by_scan placement (OpenAPI `ByScanPlacement`). */
export const ByScanPlacementOnWire = onWire(ByScan);
/** The detail record's virtual anchor, one record per kind (OpenAPI `VirtualAnchorPlacement`). */
export const VirtualAnchorPlacementOnWire = oneOf(
  [onWire(RectangleAnchor), onWire(SegmentAnchor), onWire(CircleAnchor), onWire(CornerAnchor)],
  "The anchor's frame (origin and axes per kind: y along plane_normal) and its sizes.",
);
/** The detail record's by_refimage placement: the image as a URL (OpenAPI `ByRefimagePlacement`). */
export const ByRefimagePlacementOnWire = Type.Object(
  { ...ByRefimage.properties, image_url: Type.String({ format: 'uri' }), ...OnWire },
  closed,
);

/** by_plane as a method states it. */
export type ByPlanePlacement = Static<typeof ByPlane>;
/** by_scan as a method states it. */
export type ByScanPlacement = Static<typeof ByScan>;
/** by_virtual_anchor as a method states it: the anchor frame of the endpoint's kind, with its sizes. */
export type VirtualAnchorPlacement =
  | Static<typeof RectangleAnchor>
  | Static<typeof SegmentAnchor>
  | Static<typeof CircleAnchor>
  | Static<typeof CornerAnchor>;
/** Each anchor kind's sizes and kind, as the placement carries them. */
export type AnchorSizes = VirtualAnchorPlacement extends infer A
  ? A extends unknown
    ? Omit<A, 'method' | 'pose' | 'correction_deg'>
    : never
  : never;
/** by_refimage as stored: the image frame and the name of the image among the session's files. */
export type ByRefimagePlacement = Static<typeof ByRefimage> & { image_file: string };

/** A session's placement as a method states it: one of the four methods' records. */
export type Placement = ByPlanePlacement | ByScanPlacement | VirtualAnchorPlacement | ByRefimagePlacement;

/** One warning of a placement, as the detail record lists it. */
export type PlacementWarning = Static<typeof PlacementWarnings>[number];

/**
 * A session's placement as stored: the method's record and how AR Quick Look anchors it
 * (`quick_look`; absent for sessions made before packages anchored themselves).
 */
export type StoredPlacement = Placement & { quick_look?: QuickLook; warnings?: PlacementWarning[] };

/** A placement as the detail record shows it: one of the four methods' wire records. */
export type PlacementOnWire =
  | Static<typeof ByPlanePlacementOnWire>
  | Static<typeof ByScanPlacementOnWire>
  | Static<typeof VirtualAnchorPlacementOnWire>
  | Static<typeof ByRefimagePlacementOnWire>;

/**
 * The placement of the detail record: the stored one, with the reference image's file name made
 * into its URL under `filesUrl`.
 *
 * @example
 * ```ts
 * placementOnWire(session.placement, `${base}/api/vision/v1/session/${id}/files/`);
 * ```
 */
export function placementOnWire(placement: StoredPlacement, filesUrl: string): PlacementOnWire {
  // Sessions made before placements were checked for plausibility have no warnings: none, not absent.
  const quickLook = placement.quick_look ?? null,
    warnings = placement.warnings ?? [];
  if (placement.method !== 'by_refimage') return { ...placement, quick_look: quickLook, warnings };
  const { image_file: imageFile, ...rest } = placement;
  return { ...rest, image_url: filesUrl + imageFile, quick_look: quickLook, warnings };
}
