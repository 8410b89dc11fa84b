import { createPose, quickLookAnchor, type QuickLookTarget, type Vec3 } from '@arsession/geometry';
import type { Placement, QuickLook } from '../records/Placement.js';
import { deliveredPose, type PoseJson } from './poseJson.js';

/**
 * Where AR Quick Look is to anchor a session's packages, from its placement (in the delivered
 * frame): by_plane on a level plane at the footprint anchor; by_scan on an upright plane at the
 * opening's bottom centre; a virtual anchor on its own plane when that is level or upright; by_refimage
 * on the printed image. Or `none`, with the reason, when Quick Look cannot express it.
 *
 * @example
 * ```ts
 * const quickLook = quickLookOf(placement); // → { anchoring: 'plane', alignment: 'horizontal', frame }
 * ```
 */
export function quickLookOf(placement: Placement): QuickLook {
  const anchor = quickLookAnchor(targetOf(placement));
  const frame = (p: { position: Vec3; rotation: readonly [number, number, number, number] }) =>
    deliveredPose(createPose(p.position, p.rotation), [0, 0, 0]);
  switch (anchor.type) {
    case 'plane':
      return { anchoring: 'plane', alignment: anchor.alignment, frame: frame(anchor.frame) };
    case 'image':
      return {
        anchoring: 'image',
        frame: frame(anchor.frame),
        physical_width: placement.method === 'by_refimage' ? placement.physical_width : 0,
      };
    case 'none':
      return { anchoring: 'none', reason: anchor.reason };
  }
}

function targetOf(placement: Placement): QuickLookTarget {
  switch (placement.method) {
    case 'by_plane':
      return { kind: 'floor', origin: vec(placement.anchor.position) };
    case 'by_scan': {
      const [bl, br] = placement.corners as [number[], number[]];
      return {
        kind: 'wall',
        origin: [(bl[0]! + br[0]!) / 2, (bl[1]! + br[1]!) / 2, (bl[2]! + br[2]!) / 2],
        normal: vec(placement.wall_normal),
      };
    }
    case 'by_virtual_anchor':
      return { kind: 'surface', pose: pose(placement.pose) };
    case 'by_refimage':
      return { kind: 'image', pose: pose(placement.pose) };
  }
}

const vec = (v: readonly number[]): Vec3 => [v[0]!, v[1]!, v[2]!];
const pose = (p: PoseJson) => createPose(vec(p.position), [p.rotation[0]!, p.rotation[1]!, p.rotation[2]!, p.rotation[3]!]);
