import { readIfc, type IfcSceneData } from '@arsession/convert';
import type { Vec3 } from '@arsession/geometry';
import { corpusBytes } from './corpus.js';

/** A door of AC20-FZK-Haus as a user would face it, in the model's own frame (Y-up, offset added back). */
export interface DoorView {
  scene: IfcSceneData;
  /** The IFC door opening's face the viewer stands in front of (delivered frame). */
  face: { corners: Vec3[]; normal: Vec3 };
  offset: Vec3;
  viewer: Vec3;
  gaze: Vec3;
}

/** AC20-FZK-Haus's first interior door hosted in a wall, seen from 2 m in front of its first face at eye height. */
export async function ac20DoorView(): Promise<DoorView> {
  const scene = await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'));
  const door = scene.doorOpenings.find((d) => d.wall && d.faces.length && d.door.name.startsWith('Innentuer'))!;
  const face = door.faces[0]!;
  const offset = scene.offset;
  const centre = face.corners.reduce<number[]>((s, c) => s.map((v, k) => v + c[k]! / 4), [0, 0, 0]).map((v, k) => v + offset[k]!) as Vec3;
  const viewer: Vec3 = [centre[0] + 2 * face.normal[0], face.corners[0][1] + offset[1] + 1.6, centre[2] + 2 * face.normal[2]];
  const gaze = centre.map((v, k) => v - viewer[k]!) as Vec3;
  return { scene, face, offset, viewer, gaze };
}
