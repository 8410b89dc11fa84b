// docs/IOS.md, checked: its worked example's numbers come from a real session and its formulas
// (T = W · P⁻¹, the door frame an app builds, each method's frame rule) land the model where the
// request said. Swift cannot be compiled here; the same maths runs in TypeScript.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ANCHOR_DEFAULTS,
  DOOR_SIZE_LIMITS,
  MIN_CORNER_ANGLE_DEG,
  MIN_SEGMENT_LENGTH,
  VALIDATE_OPENING_DEFAULTS,
  alignFrames,
  composePoses,
  invertPose,
  poseFromMatrix,
  transformPoint,
  validateOpening,
  type Pose,
  type Vec3,
} from '@arsession/geometry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityOf, readIfc } from '@arsession/convert';
import { corpusBytes, corpusPath, REPO_ROOT } from './support/corpus.js';
import { readUsdzBack } from './support/usdReader.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';

const AC20 = corpusPath('ifc', 'AC20-FZK-Haus.ifc');

interface WorkedExample {
  placement_frame_matrix: number[];
  placement_corners: Vec3[];
  measured_bl: Vec3;
  measured_br: Vec3;
  measured_normal: Vec3;
  W: number[];
  T: number[];
  world_corners: Vec3[];
}
const guide = readFileSync(join(REPO_ROOT, 'docs', 'IOS.md'), 'utf8');
const example = JSON.parse(/<!-- worked-example -->\s*```json\n([\s\S]*?)```/.exec(guide)![1]!) as WorkedExample;

const close = (a: ArrayLike<number>, b: ArrayLike<number>, tol = 1e-6) => {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!), `at ${i}: ${a[i]} vs ${b[i]}`).toBeLessThan(tol);
};
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: Vec3): Vec3 => {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** The guide's rule for every frame: y = the normal; x = a direction with its normal part removed; z = x × y. */
function frameByRule(origin: Vec3, normal: Vec3, direction: Vec3): number[] {
  const y = unit(normal);
  const x = unit(sub(direction, y.map((v) => v * dot(direction, y)) as Vec3));
  const z = cross(x, y);
  return [...x, 0, ...y, 0, ...z, 0, ...origin, 1];
}

/** The guide's Swift doorFrame, line by line. */
function doorFrame(bl: Vec3, br: Vec3, normal: Vec3): number[] {
  const up: Vec3 = [0, 1, 0];
  const z = unit([normal[0], 0, normal[2]]);
  const x = cross(up, z);
  const origin: Vec3 = [(bl[0] + br[0]) / 2, (bl[1] + br[1]) / 2, (bl[2] + br[2]) / 2];
  return [...x, 0, ...up, 0, ...z, 0, ...origin, 1];
}

/** T = W · P⁻¹. */
const modelTransform = (W: number[], P: number[]): Pose => composePoses(poseFromMatrix(W), invertPose(poseFromMatrix(P)));

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

async function detailOf(path: string, fields: Record<string, string | [Blob, string]>) {
  const r = await postSession(t, path, form({ model_file: filePart(AC20), ...fields }));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return (await getDetail(t, sessionIdOf(r.body.deeplink as string))).body;
}

describe('docs/IOS.md', () => {
  it("its worked example is a real session, and T = W · P⁻¹ puts the model's door on the measured one", async () => {
    const detail = await detailOf('by_scan', {
      'alignment.corners': JSON.stringify(example.placement_corners),
      'alignment.wall_normal': '[1, 0, 0]',
    });
    expect(detail.model_frame.offset).toEqual([0, 0, 0]);
    close(detail.placement.frame.matrix, example.placement_frame_matrix);
    detail.placement.corners.forEach((c: Vec3, i: number) => close(c, example.placement_corners[i]!));
    // W, built as the Swift does, is the server's own door frame of the measured corners.
    const W = doorFrame(example.measured_bl, example.measured_br, example.measured_normal);
    close(W, example.W);
    const measured = validateOpening({ corners: example.world_corners, wallNormal: example.measured_normal });
    close(measured.frame.matrix, W);
    const T = modelTransform(W, detail.placement.frame.matrix);
    close(T.matrix, example.T);
    detail.placement.corners.forEach((c: Vec3, i: number) => close(transformPoint([0, 0, 0], T, c), example.world_corners[i]!, 1e-9));
    // With gravity known, the yaw-and-shift fit gives the same transform.
    close(alignFrames(poseFromMatrix(detail.placement.frame.matrix), poseFromMatrix(W)).pose.matrix, T.matrix);
  });

  it("each method's P is the frame its table row says, so W built the same way in the world is the same thing", async () => {
    const plane = await detailOf('by_plane', {});
    const { min, max } = plane.model_assets[0].bounds as { min: Vec3; max: Vec3 };
    close(
      plane.placement.anchor.matrix,
      [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, (min[0] + max[0]) / 2, min[1], (min[2] + max[2]) / 2, 1],
      1e-3,
    );

    const anchors: Array<[string, Record<string, string>, number[]]> = [
      [
        'circle-directional',
        { center: '[0, 0, 0]', radius: '0.5', plane_normal: '[0, 1, 0]', direction: '[1, 0.3, -1]' },
        frameByRule([0, 0, 0], [0, 1, 0], [1, 0.3, -1]),
      ],
      [
        'rectangle-short-side',
        { center: '[1, 0.75, -2]', width: '0.6', height: '1.2', plane_normal: '[0, 1, 0]', short_side_direction: '[1, 0, 0]' },
        frameByRule([1, 0.75, -2], [0, 1, 0], [1, 0, 0]),
      ],
      [
        'segment-directional',
        { segment_point_1: '[0, 0, 0]', segment_point_2: '[2, 0, 1]', plane_normal: '[0, 1, 0]' },
        frameByRule([1, 0, 0.5], [0, 1, 0], [2, 0, 1]),
      ],
      [
        'corner-directional',
        { corner: '[3, 0, -1]', edge_1_direction: '[1, 0, 0]', edge_2_direction: '[0, 0, 1]', plane_normal: '[0, 1, 0]' },
        frameByRule([3, 0, -1], [0, 1, 0], [1, 0, 1]),
      ],
    ];
    for (const [kind, fields, rule] of anchors) {
      const d = await detailOf(
        `by_virtual_anchor/${kind}`,
        Object.fromEntries(Object.entries(fields).map(([k, v]) => [`virtual_anchor.${k}`, v])),
      );
      close(d.placement.pose.matrix, rule);
    }

    // The image: y its normal, x to its right (up × normal), z to its bottom.
    const image = await detailOf('by_refimage', {
      reference_image: [new Blob([ONE_PIXEL_PNG]), 'poster.png'],
      'reference_image.physical_width': '0.42',
      'reference_image.center': '[0, 1.5, -2]',
      'reference_image.normal': '[0, 0, 1]',
      'reference_image.up': '[0, 1, 0]',
    });
    close(image.placement.pose.matrix, frameByRule([0, 1.5, -2], [0, 0, 1], cross([0, 1, 0], [0, 0, 1])));
    expect(image.placement.physical_width).toBe(0.42);
  });

  it("section 5: the part to load first is the door's storey, and the camera brought in by T⁻¹ finds the part it stands in", async () => {
    // AC20 over a budget of 10,000 triangles: a part per storey.
    const tight = await startTestServer({ budgetTriangles: 10_000 });
    try {
      const r = await postSession(
        tight,
        'by_scan',
        form({
          model_file: filePart(AC20),
          'alignment.corners': JSON.stringify(example.placement_corners),
          'alignment.wall_normal': '[1, 0, 0]',
        }),
      );
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const detail = (await getDetail(tight, sessionIdOf(r.body.deeplink as string))).body;
      const parts = detail.model_assets[0].parts as {
        at_placement: number;
        items: Array<{ name: string; bounds: { min: Vec3; max: Vec3 } }>;
      };
      expect(parts.items[parts.at_placement]!.name).toBe('Erdgeschoss');
      const T = modelTransform(example.W, detail.placement.frame.matrix);
      close(T.matrix, example.T);
      // The part whose bounds hold the camera, the smallest of those (as partAt picks it).
      const standingIn = (camera: Vec3) => {
        const p = transformPoint([0, 0, 0], invertPose(T), camera);
        const holding = parts.items.filter((it) => [0, 1, 2].every((k) => it.bounds.min[k]! <= p[k]! && p[k]! <= it.bounds.max[k]!));
        const volume = (it: (typeof parts.items)[number]) => [0, 1, 2].reduce((v, k) => v * (it.bounds.max[k]! - it.bounds.min[k]!), 1);
        return holding.sort((a, b) => volume(a) - volume(b))[0]?.name;
      };
      // Eye height in the room beyond the door (the camera 1.5 m from the wall, the floor 1.45 m below the start)…
      expect(standingIn([0, 0.15, -4.5])).toBe('Erdgeschoss');
      // …and the same spot a storey (2.7 m) up: the roof storey.
      expect(standingIn([0, 2.85, -4.5])).toMatch(/^Dachgeschoss/);
    } finally {
      await tight.stop();
    }
  });

  it('section 7: the storey of a prim_path and the texts it quotes are what AC20 delivers', async () => {
    const r = await postSession(t, 'by_plane', form({ model_file: filePart(AC20) }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const detail = (await getDetail(t, sessionIdOf(r.body.deeplink as string))).body;
    const storeys = detail.model_assets[0].storeys as Array<{ name: string; prim_path: string }>;
    // The entity an app looks up is the prim's name: the path's last component.
    const usdz = new Uint8Array(await (await fetch(detail.model_assets[0].usdz_url as string)).arrayBuffer());
    const back = await readUsdzBack(usdz);
    for (const s of storeys) expect(back.prims.map((p) => p.path)).toContain(s.prim_path);
    const roof = back.text.indexOf(
      `def Xform "${storeys
        .find((s) => s.name === 'Dachgeschoss')!
        .prim_path.split('/')
        .pop()}"`,
    );
    expect(back.text.slice(roof, roof + 1000)).toContain('"Storey at elevation 2.7 m"');
    // The storey variant set offers `all` and a variant per storey named as its prim (section 7).
    const variants = back.text.slice(back.text.indexOf('variantSet "storey" = {'));
    expect(variants.length).toBeLessThan(back.text.length);
    for (const name of ['all', ...storeys.map((s) => s.prim_path.split('/').pop()!)]) expect(variants).toContain(`"${name}" {`);
    expect(guide).toContain('`storey` on its default prim `/Model`');
    expect(guide.replace(/\s+/g, ' ')).toContain('"Storey at elevation 2.7 m"');
    // An element drawn as its own prim: AC20's doors, as the reader identifies them.
    const scene = await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'));
    const door = scene.nodes.find((n) => n.metadata.ifcClass === 'IfcDoor')!;
    expect(accessibilityOf(door.metadata)?.description).toBe('Door on Erdgeschoss');
    expect(guide.replace(/\s+/g, ' ')).toContain('"Door on Erdgeschoss"');
  });

  it("section 8: every limit it quotes is the server's own", () => {
    const section = guide.slice(guide.indexOf('## 8.'), guide.indexOf('## 9.')).replace(/\s+/g, ' ');
    const o = VALIDATE_OPENING_DEFAULTS;
    const rows = [
      `| at most ${o.maxPlaneDistance * 100} cm | \`not_planar\``,
      `| at most ${o.maxNormalTiltDeg}° | \`normal_not_horizontal\``,
      `| at most ${o.maxNormalDeviationDeg}° | \`normal_not_perpendicular\``,
      `| at most ${o.maxBottomSlopeDeg}° | \`bottom_not_horizontal\``,
      `| at least ${o.minEdgeLength * 100} cm | \`degenerate_edge\``,
      `| ${DOOR_SIZE_LIMITS.minWidth} to ${DOOR_SIZE_LIMITS.maxWidth.toFixed(1)} m | \`implausible_width\``,
      `| ${DOOR_SIZE_LIMITS.minHeight} to ${DOOR_SIZE_LIMITS.maxHeight.toFixed(1)} m | \`implausible_height\``,
      `| at least ${ANCHOR_DEFAULTS.minAngleToNormalDeg}° | \`parallel_to_normal\``,
      `| at least ${MIN_SEGMENT_LENGTH * 100} cm | \`degenerate_segment\``,
      `| ${MIN_CORNER_ANGLE_DEG}° to ${180 - MIN_CORNER_ANGLE_DEG}° | \`edges_parallel\``,
    ];
    for (const row of rows) expect(section, row).toContain(row);
  });

  it('section 9: each code its tables name is one the served document names for that call, and the claim answers them', async () => {
    const spec = (await (await fetch(`${t.url}/api/vision/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const section = guide.slice(guide.indexOf('## 9.'));
    // Each call's table: from its bold heading to the next one.
    const tables: Array<[string, string[]]> = [
      ['**Claim a one-time code**', ['/api/vision/v1/session/claim/']],
      ['**Read the detail record**', ['/api/vision/v1/session/{session_id}/']],
      ['**Download files**', ['/api/vision/v1/session/{session_id}/files/{name}']],
      ['**Element record**', ['/api/vision/v1/session/{session_id}/elements/{global_id}']],
      ['**Create a session**', Object.keys(spec.paths).filter((p) => /\/session\/by_/.test(p))],
    ];
    for (const [heading, paths] of tables) {
      const start = section.indexOf(heading);
      expect(start, heading).toBeGreaterThanOrEqual(0);
      const next = section.indexOf('\n**', start + heading.length);
      const table = section.slice(start, next < 0 ? undefined : next);
      const documented = paths.map((p) => JSON.stringify(spec.paths[p])).join(' ');
      expect(documented.length, heading).toBeGreaterThan(100);
      // The code column of each status row: backticked snake_case words.
      const codes = [...table.matchAll(/^\| \d{3} \|([^|]*)\|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([a-z_]+)`/g)].map((c) => c[1]!));
      for (const code of codes) expect(documented, `${heading} ${code}`).toContain(code);
    }
    // The claim answers what the table says, for a body it cannot read and one too large.
    const claim = (body: string) =>
      fetch(`${t.url}/api/vision/v1/session/claim/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(await (await claim('{"onetime_code": ')).json()).toMatchObject({ status: 400, code: 'malformed_body' });
    expect(await (await claim(JSON.stringify({ onetime_code: '1', pad: 'x'.repeat(8192) }))).json()).toMatchObject({
      status: 413,
      code: 'body_too_large',
    });
  });
});
