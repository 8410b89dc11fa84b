import type { UpAxis, Vec3 } from '@arsession/geometry';
import type { DoorOpeningRecord } from './DoorOpeningRecord.js';

/** Options of {@link doorApproaches}. */
export interface DoorApproachOptions {
  /** How far in front of the opening the viewer stands (m), unless the face says where mode 1 works from (`viewerDistance`). */
  distance: number;
  /** How high above the opening's sill the viewer's eyes are (m). */
  eyeHeight: number;
  /** The frame the numbers are given in, as a request declares it (`alignment.coordinate_system`). */
  coordinateSystem: UpAxis;
}

/** Defaults of {@link doorApproaches}: a person 2 m in front of the door, eyes at 1.6 m. */
export const DOOR_APPROACH_DEFAULTS: Readonly<DoorApproachOptions> = { distance: 2, eyeHeight: 1.6, coordinateSystem: 'y-up' };

/**
 * One side of a door opening as a by_scan request names it, in the submitted model's frame: what
 * to send to place the model by this door.
 */
export interface DoorApproach {
  /** Which face of the opening (the record's `faces` index). */
  face: number;
  /** Mode 2: the opening's corners [BL, BR, TR, TL] as seen from this side, and the wall normal toward the viewer. */
  corners: [Vec3, Vec3, Vec3, Vec3];
  wallNormal: Vec3;
  /** Mode 1: where a person stands, and the direction they look in: at the opening's centre. */
  viewer: Vec3;
  gaze: Vec3;
}

/**
 * Each face of a door opening as a by_scan request would name it: the corners and wall normal of
 * mode 2, and a viewer point and gaze from which mode 1 detects the door, in the submitted model's
 * frame (`offset`, the delivered frame's shift, added back) and in the convention asked for (Y-up
 * as sent by an AR client; Z-up as a BIM tool shows the model). Numbers are rounded to the millimetre.
 *
 * @example
 * ```ts
 * const [front] = doorApproaches(scene.doorOpenings[0], scene.offset, { coordinateSystem: 'z-up' });
 * form.append('alignment.point_1', JSON.stringify(front.viewer));
 * form.append('alignment.point_2', JSON.stringify(front.gaze));
 * form.append('alignment.coordinate_system', 'z-up');
 * ```
 */
export function doorApproaches(record: DoorOpeningRecord, offset: Vec3, options: Partial<DoorApproachOptions> = {}): DoorApproach[] {
  const { distance, eyeHeight, coordinateSystem } = { ...DOOR_APPROACH_DEFAULTS, ...options };
  const point = (p: Vec3): Vec3 => toFrame([p[0] + offset[0], p[1] + offset[1], p[2] + offset[2]], coordinateSystem);
  const direction = (d: Vec3): Vec3 => toFrame(d, coordinateSystem);
  return record.faces.map((f, face) => {
    const centre = f.corners.reduce<Vec3>((s, c) => [s[0] + c[0] / 4, s[1] + c[1] / 4, s[2] + c[2] / 4], [0, 0, 0]);
    const sill = Math.min(...f.corners.map((c) => c[1]));
    // A distance found to work from this face (approachDoors) comes first.
    const away = f.viewerDistance ?? distance;
    const viewer: Vec3 = [centre[0] + away * f.normal[0], sill + eyeHeight, centre[2] + away * f.normal[2]];
    const gaze: Vec3 = [centre[0] - viewer[0], centre[1] - viewer[1], centre[2] - viewer[2]];
    return {
      face,
      corners: f.corners.map(point) as DoorApproach['corners'],
      wallNormal: direction(f.normal),
      viewer: point(viewer),
      gaze: direction(gaze),
    };
  });
}

/** A Y-up point or direction in the convention asked for, to the millimetre: Z-up is to_y_up's inverse, (x, y, z) → (x, −z, y). */
function toFrame(v: Vec3, system: UpAxis): Vec3 {
  const out: Vec3 = system === 'z-up' ? [v[0], -v[2], v[1]] : [v[0], v[1], v[2]];
  return out.map((x) => Math.round(x * 1000) / 1000 + 0) as Vec3;
}
