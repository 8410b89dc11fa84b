import { chooseOpening, type OpeningCandidate, type Vec3 } from '@arsession/geometry';
import { describe, expect, it } from 'vitest';
import { readIfc } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';

// Issue 4, semantic path: for every door hosted in a wall, a viewer 2 m in front at eye height
// gazing at the opening's centre finds that opening within 3 cm.
describe.each([
  'duplex.ifc',
  'AC20-FZK-Haus.ifc',
  'Office_A_20110811.ifc',
  'SampleHouse4.ifc',
  'IfcOpenHouse_IFC4.ifc',
  'wall_door_columnt_rgb4x3.ifc',
])('semantic door detection on %s', (name) => {
  it('finds every hosted door from 2 m in front of each face, within 3 cm', async () => {
    const scene = await readIfc(corpusBytes('ifc', name));
    const candidates: OpeningCandidate[] = scene.doorOpenings.flatMap((d) =>
      d.faces.map((f) => ({ ...f, source: { id: d.door.globalId } })),
    );
    let checked = 0,
      wrong = 0;
    const misses: string[] = [];
    for (const d of scene.doorOpenings.filter((x) => x.wall && x.faces.length)) {
      for (const face of d.faces) {
        const centre = face.corners.reduce<number[]>((s, c) => s.map((v, k) => v + c[k]! / 4), [0, 0, 0]) as Vec3;
        const viewer: Vec3 = [centre[0] + 2 * face.normal[0], face.corners[0][1] + 1.6, centre[2] + 2 * face.normal[2]];
        const gaze = centre.map((v, k) => v - viewer[k]!);
        checked++;
        const chosen = chooseOpening(candidates, viewer, gaze);
        const error = Math.max(...chosen.opening.corners.flatMap((c, i) => c.map((v, k) => Math.abs(v - face.corners[i]![k]!))));
        if (error > 0.03) {
          wrong++;
          misses.push(`${d.door.name || d.door.globalId}: chose ${candidates[chosen.candidate]!.source?.id} (${error.toFixed(2)} m off)`);
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(misses).toEqual([]);
    expect(wrong).toBe(0);
  });
});
