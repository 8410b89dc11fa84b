// A door you can find: `arsession inspect --json` gives each IFC door's sides as by_scan form
// fields, and a request written from them, pasted as they are, places the model by that door.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, REPO_ROOT } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';

const AC20 = corpusPath('ifc', 'AC20-FZK-Haus.ifc');

type Fields = Record<string, string>;
interface InspectedDoor {
  door: string;
  wall: string | null;
  by_side: Array<{ side: number; mode1_works: boolean; y_up: { mode1: Fields; mode2: Fields }; z_up: { mode1: Fields; mode2: Fields } }>;
}

let t: TestServer;
let doors: InspectedDoor[];
beforeAll(async () => {
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'packages', 'cli', 'bin', 'arsession.js'), 'inspect', '--json', AC20], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(run.status, run.stderr).toBe(0);
  doors = (JSON.parse(run.stdout) as { doors: InspectedDoor[] }).doors;
  t = await startTestServer();
});
afterAll(() => t?.stop());

/** Sends by_scan with the fields as inspect printed them; the placement it answers. */
async function placeBy(fields: Fields) {
  const r = await postSession(t, 'by_scan', form({ model_file: filePart(AC20), ...fields }));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return (await getDetail(t, sessionIdOf(r.body.deeplink as string))).body.placement as {
    found: string;
    corners: number[][];
    wall_normal: number[];
  };
}

const near = (a: number[][], b: number[][], tol: number) =>
  a.forEach((p, i) => p.forEach((v, k) => expect(Math.abs(v - b[i]![k]!)).toBeLessThan(tol)));

describe('arsession inspect: each door as by_scan takes it', () => {
  it('lists every door of AC20-FZK-Haus, from both sides of its wall', () => {
    expect(doors.map((d) => d.door)).toEqual(['Innentuer-1', 'Innentuer-2', 'Innentuer-3', 'Haustuer', 'Terrassentuer']);
    for (const d of doors) expect(d.by_side.map((s) => s.side)).toEqual([0, 1]);
  });

  it('mode 1 from every side it says works detects that door, where mode 2 with its printed corners puts it', async () => {
    for (const d of doors) {
      expect(
        d.by_side.some((s) => s.mode1_works),
        d.door,
      ).toBe(true);
      for (const {
        y_up: { mode1, mode2 },
      } of d.by_side.filter((s) => s.mode1_works)) {
        const [detected, given] = [await placeBy(mode1), await placeBy(mode2)];
        expect(detected.found, d.door).toBe('detected');
        expect(given.found).toBe('given');
        near(detected.corners, given.corners, 0.03);
        near([detected.wall_normal], [given.wall_normal], 0.01);
      }
    }
  });

  it('the Z-up fields, as a BIM tool shows the model, place it the same way from the other side', async () => {
    const side = doors[0]!.by_side.find((s) => s.side === 1 && s.mode1_works)!;
    const [y, z] = [await placeBy(side.y_up.mode1), await placeBy(side.z_up.mode1)];
    expect(z.found).toBe('detected');
    near(y.corners, z.corners, 1e-6);
    near(z.corners, (await placeBy(side.z_up.mode2)).corners, 0.03);
  });
});
