import { buildBvh, detectDoor, detectOpening, DoorNotFoundError, raycastFirst, type Bvh, type Vec3 } from '@arsession/geometry';
import {
  detectDoorInScene,
  doorCandidates,
  readGlb,
  readIfc,
  readUsdz,
  sceneTriangles,
  writeGlb,
  writeUsdaLayer,
  zipStored,
  type SceneData,
} from '@arsession/convert';
import { describe, expect, it } from 'vitest';
import { ac20DoorView } from './support/ac20DoorView.js';
import { corpusBytes } from './support/corpus.js';

/** The building as a GLB with its semantics gone: no names, no metadata, no door index. */
async function strippedGlb(scene: SceneData): Promise<SceneData> {
  const anonymous: SceneData = {
    ...scene,
    nodes: scene.nodes.map((n) => ({ ...n, name: '', metadata: {} })),
    meshes: scene.meshes.map((m) => {
      const { elements: _elements, ...rest } = m;
      return { ...rest, name: '' };
    }),
    materials: scene.materials.map((m) => ({ ...m, name: '' })),
  };
  return readGlb(await writeGlb(anonymous));
}

/**
 * Where a user would stand: 2 m in front of the opening at eye height, or closer when something
 * stands in between (a corridor narrower than 2 m, a railing), so that the opening's centre is in
 * sight. Undefined when it is in sight from nowhere between 2 m and 0.6 m.
 */
function viewerFor(mesh: Parameters<typeof raycastFirst>[1], bvh: Bvh, centre: Vec3, normal: Vec3, floorY: number): Vec3 | undefined {
  const eyeY = floorY + 1.6;
  for (let dist = 2; dist >= 0.6; dist -= 0.1) {
    const viewer: Vec3 = [centre[0] + dist * normal[0], eyeY, centre[2] + dist * normal[2]];
    const ahead = raycastFirst(bvh, mesh, [centre[0] + normal[0] * 0.05, eyeY, centre[2] + normal[2] * 0.05], normal, dist + 0.3);
    const toCentre = centre.map((c, k) => c + normal[k]! * 0.05 - viewer[k]!) as Vec3;
    if (!ahead && !raycastFirst(bvh, mesh, viewer, toCentre, Math.hypot(...toCentre))) return viewer;
  }
  return undefined;
}

// Issue 4, geometric path: every door hosted in a wall, a viewer in front of each face gazing at
// the opening's centre, on the building converted to GLB with its semantics stripped. The answer
// is compared with the opening the IFC semantics state (door → opening → wall, measured on the face).
// Every face a viewer can see is found, and every door from at least one face. A face is in sight
// from nowhere when no spot 0.6–2 m in front of it sees its centre (the inside of a closet
// shallower than that): duplex has four such faces and Office_A two.
// Office_A's upper storey has no floor slab (the doorways end where the walls end) and its walls
// start 10 cm above the slabs (the doorways start there too); its toilet cubicles have leaves as
// thick as their partitions, flush with both faces, under partitions standing 0.5 m off the floor.
const MODELS = [
  'duplex.ifc',
  'AC20-FZK-Haus.ifc',
  'Office_A_20110811.ifc',
  'SampleHouse4.ifc',
  'IfcOpenHouse_IFC4.ifc',
  'wall_door_columnt_rgb4x3.ifc',
];

describe.each(MODELS)('geometric door detection on %s, semantics stripped', (name) => {
  it('finds every hosted door, from in front of each face in sight, within 3 cm', async () => {
    const ifc = await readIfc(corpusBytes('ifc', name));
    const glb = await strippedGlb(ifc);
    // Nothing IFC is left: no classes, GlobalIds or names, no door index.
    expect(glb.nodes.some((n) => Object.values(n.metadata).some((v) => /^Ifc|^[0-9A-Za-z_$]{22}$/.test(v)) || /Ifc/.test(n.name))).toBe(
      false,
    );
    expect('doorOpenings' in glb).toBe(false);
    const soup = sceneTriangles(glb);
    // The GLB keeps the IFC's re-centred frame, so the door index's faces compare directly.
    const mesh = { ...soup, offset: [0, 0, 0] as Vec3 };
    const bvh = buildBvh(mesh);
    let found = 0,
      unseen = 0;
    const missed: string[] = [];
    const doors = ifc.doorOpenings.filter((x) => x.wall && x.faces.length);
    const doorsFound = new Set<string>();
    for (const d of doors) {
      for (const face of d.faces) {
        const centre = face.corners.reduce<number[]>((s, c) => s.map((v, k) => v + c[k]! / 4), [0, 0, 0]) as Vec3;
        const viewer = viewerFor(mesh, bvh, centre, face.normal, face.corners[0][1]);
        if (!viewer) {
          unseen++;
          continue;
        }
        try {
          const r = detectOpening(
            mesh,
            bvh,
            viewer,
            centre.map((v, k) => v - viewer[k]!),
          );
          const error = Math.max(...r.opening.corners.flatMap((c, i) => c.map((v, k) => Math.abs(v - face.corners[i]![k]!))));
          if (error <= 0.03) {
            found++;
            doorsFound.add(d.door.globalId);
          } else missed.push(`${d.door.name || d.door.globalId}: ${error.toFixed(2)} m off`);
        } catch (err) {
          if (!(err instanceof DoorNotFoundError)) throw err;
          missed.push(`${d.door.name || d.door.globalId}: refused (${err.reason})`);
        }
      }
    }
    const seen = found + missed.length;
    console.log(
      `${name}: ${found}/${seen} faces found within 3 cm, ${doorsFound.size}/${doors.length} doors, ${unseen} faces in sight from nowhere`,
    );
    expect(seen).toBeGreaterThan(0);
    expect(unseen).toBeLessThanOrEqual(seen / 4);
    expect(missed, missed.join('; ')).toEqual([]);
    expect(doors.filter((d) => !doorsFound.has(d.door.globalId)).map((d) => d.door.name)).toEqual([]);
  }, 120_000);
});

/**
 * The building as another tool would deliver it in USDZ: a text layer in centimetres with Z up
 * (`metersPerUnit = 0.01`, `upAxis = "Z"`), its geometry under a root prim whose transform turns
 * our Y-up metres into that frame, and no semantics. Our USD reader must undo all of it.
 */
function centimetreZUpUsdz(scene: SceneData): Uint8Array {
  // Column-major: (x, y, z) m → (x, −z, y) cm.
  const toZUpCentimetres = new Float64Array([100, 0, 0, 0, 0, 0, 100, 0, 0, -100, 0, 0, 0, 0, 0, 1]);
  const wrapped: SceneData = {
    ...scene,
    nodes: [
      { name: 'zup_cm', parent: -1, matrix: toZUpCentimetres, meshes: [], metadata: {} },
      ...scene.nodes.map((n) => ({ ...n, name: '', metadata: {}, parent: n.parent < 0 ? 0 : n.parent + 1 })),
    ],
  };
  const text = [...writeUsdaLayer(wrapped)]
    .map((part) => (typeof part === 'string' ? part : Buffer.from(part).toString('utf8')))
    .join('')
    .replace('metersPerUnit = 1\n', 'metersPerUnit = 0.01\n')
    .replace('upAxis = "Y"', 'upAxis = "Z"');
  expect(text).toMatch(/upAxis = "Z"/);
  expect(text).toMatch(/metersPerUnit = 0\.01\n/);
  return new Uint8Array(Buffer.concat(zipStored([{ name: 'building.usda', data: new Uint8Array(Buffer.from(text, 'utf8')) }])));
}

describe('geometric door detection on a USDZ from another tool (centimetres, Z up)', () => {
  it("finds AC20-FZK-Haus's door through our USD reader where the IFC semantics put it, within 3 cm", async () => {
    const { scene, face, offset, viewer, gaze } = await ac20DoorView();
    const usdz = await readUsdz(centimetreZUpUsdz(scene));
    expect(usdz.source.format).toBe('usdz');
    // Re-centred coordinates, as the GLB keeps them: the question is asked without the offset.
    const door = detectDoorInScene(usdz, { viewer: viewer.map((v, k) => v - offset[k]!), gaze, coordinateSystem: 'y-up' });
    expect(door.method).toBe('geometric');
    const error = Math.max(
      ...door.opening.corners.flatMap((c, i) => c.map((v, k) => Math.abs(v - usdz.offset[k]! - face.corners[i]![k]!))),
    );
    expect(error).toBeLessThan(0.03);
  }, 120_000);
});

// Issue 4, negative case on a real model: ISSUE_021 is a steel frame with no walls and no doors.
// Viewers anywhere inside it, looking anywhere level or slightly down, are refused, never answered.
describe('door detection on a model without walls (ISSUE_021_Mini_Project.ifc)', () => {
  it('refuses every question with a DoorNotFoundError', async () => {
    const scene = await readIfc(corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'));
    expect(scene.doorOpenings).toEqual([]);
    const mesh = sceneTriangles(scene);
    const bvh = buildBvh(mesh);
    // Bounds are in the delivered (re-centred) frame; detectDoor takes world coordinates.
    const min = scene.bounds.min.map((v, k) => v + scene.offset[k]!);
    const max = scene.bounds.max.map((v, k) => v + scene.offset[k]!);
    // A seeded sequence (a linear congruential generator in 32-bit arithmetic): the same 40 viewpoints on every run.
    let state = 21;
    const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const answers: string[] = [];
    const reasons = new Set<string>();
    for (let q = 0; q < 40; q++) {
      const viewer: Vec3 = [
        min[0]! + next() * (max[0]! - min[0]!),
        min[1]! + 1.6 + next() * Math.max(0, max[1]! - min[1]! - 2),
        min[2]! + next() * (max[2]! - min[2]!),
      ];
      const yaw = next() * 2 * Math.PI,
        pitch = -next() * 0.3;
      const gaze: Vec3 = [Math.cos(pitch) * Math.sin(yaw), Math.sin(pitch), Math.cos(pitch) * Math.cos(yaw)];
      try {
        const door = detectDoor({ mesh, bvh, candidates: doorCandidates(scene.doorOpenings), viewer, gaze });
        answers.push(
          `from ${viewer.map((v) => v.toFixed(1))}: ${door.method} ${door.opening.width.toFixed(2)} × ${door.opening.height.toFixed(2)}`,
        );
      } catch (err) {
        if (!(err instanceof DoorNotFoundError)) throw err;
        reasons.add(err.reason);
      }
    }
    expect(answers).toEqual([]);
    console.log(`ISSUE_021: 40 questions refused (${[...reasons].join(', ')})`);
  }, 120_000);
});
