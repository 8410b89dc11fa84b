import {
  circleDirectionalFrame,
  cornerDirectionalFrame,
  rectangleShortSideFrame,
  segmentDirectionalFrame,
  type CircleAnchorFrame,
  type CornerAnchorFrame,
  type RectangleAnchorFrame,
  type SegmentAnchorFrame,
  type UpAxis,
} from '@arsession/geometry';
import { enumField, numberField, requireFields, vectorField } from '../form/fieldValues.js';
import type { Form } from '../form/readMultipartForm.js';
import type { AnchorSizes, VirtualAnchorPlacement } from '../records/Placement.js';
import type { PlacementMethod } from './PlacementMethod.js';
import { deliveredPose, round } from './poseJson.js';

type Frame = RectangleAnchorFrame | SegmentAnchorFrame | CircleAnchorFrame | CornerAnchorFrame;

/**
 * Reads the `virtual_anchor.*` fields that every kind shares. An `anchor_type` naming another
 * kind is a wrong value for a form field (400 `unknown_value`, naming the one this endpoint
 * takes), not a geometry problem.
 */
function common(form: Form, kind: Frame['kind']): { anchorType?: string; coordinateSystem: UpAxis } {
  const anchorType = enumField(form, 'virtual_anchor.anchor_type', [kind]);
  return {
    ...(anchorType !== undefined && { anchorType }),
    coordinateSystem: enumField(form, 'virtual_anchor.coordinate_system', ['y-up', 'z-up'] as const) ?? 'y-up',
  };
}

// Presence is checked first (400 listing every missing field); values are judged by the geometry builders (422).
const v = (form: Form, name: string, limit: number) => vectorField(form, `virtual_anchor.${name}`, limit) as number[];
const n = (form: Form, name: string, limit: number) => numberField(form, `virtual_anchor.${name}`, limit) as number;

/** The four anchor kinds: endpoint path, fields, and the geometry builder that makes the frame. */
const KINDS: Record<string, { fields: string[]; required: string[]; frame: (form: Form, limit: number) => Frame }> = {
  'rectangle-short-side': {
    fields: ['center', 'width', 'height', 'plane_normal', 'short_side_direction'],
    required: ['center', 'width', 'height', 'plane_normal', 'short_side_direction'],
    frame: (f, limit) => {
      const c = common(f, 'rectangle_short_side');
      return rectangleShortSideFrame(
        {
          ...c,
          center: v(f, 'center', limit),
          width: n(f, 'width', limit),
          height: n(f, 'height', limit),
          planeNormal: v(f, 'plane_normal', limit),
          shortSideDirection: v(f, 'short_side_direction', limit),
        },
        c,
      );
    },
  },
  'segment-directional': {
    fields: ['segment_point_1', 'segment_point_2', 'plane_normal', 'placement_source'],
    required: ['segment_point_1', 'segment_point_2', 'plane_normal'],
    frame: (f, limit) => {
      const c = common(f, 'segment_directional');
      const source = enumField(f, 'virtual_anchor.placement_source', ['model_surface']);
      return segmentDirectionalFrame(
        {
          ...c,
          segmentPoint1: v(f, 'segment_point_1', limit),
          segmentPoint2: v(f, 'segment_point_2', limit),
          planeNormal: v(f, 'plane_normal', limit),
          ...(source !== undefined && { placementSource: source }),
        },
        c,
      );
    },
  },
  'circle-directional': {
    fields: ['center', 'radius', 'plane_normal', 'direction'],
    required: ['center', 'radius', 'plane_normal', 'direction'],
    frame: (f, limit) => {
      const c = common(f, 'circle_directional');
      return circleDirectionalFrame(
        {
          ...c,
          center: v(f, 'center', limit),
          radius: n(f, 'radius', limit),
          planeNormal: v(f, 'plane_normal', limit),
          direction: v(f, 'direction', limit),
        },
        c,
      );
    },
  },
  'corner-directional': {
    fields: ['corner', 'edge_1_direction', 'edge_2_direction', 'plane_normal'],
    required: ['corner', 'edge_1_direction', 'edge_2_direction', 'plane_normal'],
    frame: (f, limit) => {
      const c = common(f, 'corner_directional');
      return cornerDirectionalFrame(
        {
          ...c,
          corner: v(f, 'corner', limit),
          edge1Direction: v(f, 'edge_1_direction', limit),
          edge2Direction: v(f, 'edge_2_direction', limit),
          planeNormal: v(f, 'plane_normal', limit),
        },
        c,
      );
    },
  },
};

/**
 * The four by_virtual_anchor endpoints: the model is placed by a virtual anchor's rigid frame
 * (origin + quaternion, and the 4×4), given in the model's frame and reported in the delivered one.
 */
export const byVirtualAnchor: ReadonlyArray<PlacementMethod<Frame, VirtualAnchorPlacement>> = Object.entries(KINDS).map(([kind, spec]) => ({
  path: `by_virtual_anchor/${kind}`,
  method: 'by_virtual_anchor',
  requiresKey: true,
  fields: ['anchor_type', 'coordinate_system', ...spec.fields].map((f) => `virtual_anchor.${f}`),
  fileFields: [],
  read(form, limit) {
    requireFields(
      form,
      spec.required.map((f) => `virtual_anchor.${f}`),
    );
    return spec.frame(form, limit);
  },
  place(frame, { primary }) {
    return {
      method: 'by_virtual_anchor',
      pose: deliveredPose(frame.pose, primary.offset),
      correction_deg: round([frame.correctionDeg], 1e4)[0]!,
      ...sizesOf(frame),
    };
  },
}));

/** The kind's sizes as the detail record names them, to the micrometre. */
function sizesOf(frame: Frame): AnchorSizes {
  const r = (x: number) => round([x])[0]!;
  switch (frame.kind) {
    case 'rectangle_short_side':
      return { anchor_type: frame.kind, width: r(frame.width), height: r(frame.height) };
    case 'segment_directional':
      return { anchor_type: frame.kind, length: r(frame.length), placement_source: frame.placementSource };
    case 'circle_directional':
      return { anchor_type: frame.kind, radius: r(frame.radius) };
    case 'corner_directional':
      return { anchor_type: frame.kind, opening_angle_deg: r(frame.openingAngleDeg) };
  }
}
