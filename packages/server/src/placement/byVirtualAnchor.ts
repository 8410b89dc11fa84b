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
import { choiceField, directionField, type FormField, metresField, pointField, requireTextFields, upAxisField } from '../form/FormField.js';
import type { Form } from '../form/readMultipartForm.js';
import type { AnchorSizes, VirtualAnchorPlacement } from '../records/Placement.js';
import type { PlacementMethod } from './PlacementMethod.js';
import { deliveredPose, round } from './poseJson.js';

type Frame = RectangleAnchorFrame | SegmentAnchorFrame | CircleAnchorFrame | CornerAnchorFrame;

/**
 * The `virtual_anchor.*` fields of an endpoint: those every kind shares, then its own. An
 * `anchor_type` naming another kind is a wrong value for a form field (400 `unknown_value`,
 * naming the one this endpoint takes), not a geometry problem.
 */
function anchorForm<const K extends Frame['kind'], F extends Record<string, FormField>>(kind: K, own: F) {
  return {
    anchorType: choiceField(`virtual_anchor.anchor_type`, [kind], {
      description: "optional; when sent it must name this endpoint's kind (any other value: 400 unknown_value)",
    }),
    coordinateSystem: upAxisField('virtual_anchor.coordinate_system'),
    ...own,
  };
}

const field = (name: string) => `virtual_anchor.${name}`;
const required = { required: true };

// Presence is checked first (400 listing every missing field); values are judged by the geometry builders (422).
const RECTANGLE = anchorForm('rectangle_short_side', {
  center: pointField(field('center'), 'rectangle centre', required),
  width: metresField(field('width'), 'width (m)', required),
  height: metresField(field('height'), 'height (m)', required),
  planeNormal: directionField(field('plane_normal'), 'normal of the plane', required),
  shortSideDirection: directionField(field('short_side_direction'), 'direction of the short side', required),
});
const SEGMENT = anchorForm('segment_directional', {
  segmentPoint1: pointField(field('segment_point_1'), 'segment start', required),
  segmentPoint2: pointField(field('segment_point_2'), 'segment end', required),
  planeNormal: directionField(field('plane_normal'), 'normal of the plane', required),
  placementSource: choiceField(field('placement_source'), ['model_surface'], {
    default: 'model_surface',
    description: 'any other value: 400 unknown_value',
  }),
});
const CIRCLE = anchorForm('circle_directional', {
  center: pointField(field('center'), 'circle centre', required),
  radius: metresField(field('radius'), 'radius (m)', required),
  planeNormal: directionField(field('plane_normal'), 'normal of the circle plane', required),
  direction: directionField(field('direction'), 'forward, in the plane', required),
});
const CORNER = anchorForm('corner_directional', {
  corner: pointField(field('corner'), 'the corner', required),
  edge1Direction: directionField(field('edge_1_direction'), 'first edge leaving the corner', required),
  edge2Direction: directionField(field('edge_2_direction'), 'second edge', required),
  planeNormal: directionField(field('plane_normal'), 'normal of the plane', required),
});

/** The common fields as the geometry builders take them: the kind sent, if any, and the axis convention. */
function common(form: Form, shared: { anchorType: FormField<string>; coordinateSystem: FormField<UpAxis> }, limit: number) {
  const anchorType = shared.anchorType.read(form, limit);
  return { ...(anchorType !== undefined && { anchorType }), coordinateSystem: shared.coordinateSystem.read(form, limit) ?? 'y-up' };
}

/** The four anchor kinds: endpoint path, fields, and the geometry builder that makes the frame. */
const KINDS: Record<string, { form: readonly FormField[]; frame: (form: Form, limit: number) => Frame }> = {
  'rectangle-short-side': {
    form: Object.values(RECTANGLE),
    frame: (f, limit) => {
      const c = common(f, RECTANGLE, limit);
      return rectangleShortSideFrame(
        {
          ...c,
          center: RECTANGLE.center.read(f, limit)!,
          width: RECTANGLE.width.read(f, limit)!,
          height: RECTANGLE.height.read(f, limit)!,
          planeNormal: RECTANGLE.planeNormal.read(f, limit)!,
          shortSideDirection: RECTANGLE.shortSideDirection.read(f, limit)!,
        },
        c,
      );
    },
  },
  'segment-directional': {
    form: Object.values(SEGMENT),
    frame: (f, limit) => {
      const c = common(f, SEGMENT, limit);
      const source = SEGMENT.placementSource.read(f, limit);
      return segmentDirectionalFrame(
        {
          ...c,
          segmentPoint1: SEGMENT.segmentPoint1.read(f, limit)!,
          segmentPoint2: SEGMENT.segmentPoint2.read(f, limit)!,
          planeNormal: SEGMENT.planeNormal.read(f, limit)!,
          ...(source !== undefined && { placementSource: source }),
        },
        c,
      );
    },
  },
  'circle-directional': {
    form: Object.values(CIRCLE),
    frame: (f, limit) => {
      const c = common(f, CIRCLE, limit);
      return circleDirectionalFrame(
        {
          ...c,
          center: CIRCLE.center.read(f, limit)!,
          radius: CIRCLE.radius.read(f, limit)!,
          planeNormal: CIRCLE.planeNormal.read(f, limit)!,
          direction: CIRCLE.direction.read(f, limit)!,
        },
        c,
      );
    },
  },
  'corner-directional': {
    form: Object.values(CORNER),
    frame: (f, limit) => {
      const c = common(f, CORNER, limit);
      return cornerDirectionalFrame(
        {
          ...c,
          corner: CORNER.corner.read(f, limit)!,
          edge1Direction: CORNER.edge1Direction.read(f, limit)!,
          edge2Direction: CORNER.edge2Direction.read(f, limit)!,
          planeNormal: CORNER.planeNormal.read(f, limit)!,
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
  form: spec.form,
  read(form, limit) {
    requireTextFields(form, spec.form);
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
