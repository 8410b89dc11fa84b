// The AR budget through a real server on loopback: the detail record states what it did, a server
// configured with its own limits holds to them, and every placement method answers the same with
// and without it (placement is computed on the full model).
import { readUsdz } from '@arsession/convert';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ac20DoorView } from './support/ac20DoorView.js';
import { corpusPath } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';

const ISSUE_021 = corpusPath('ifc', 'ISSUE_021_Mini_Project.ifc');
const AC20 = corpusPath('ifc', 'AC20-FZK-Haus.ifc');

let budgeted: TestServer, unbudgeted: TestServer, tight: TestServer;
beforeAll(async () => {
  [budgeted, unbudgeted, tight] = await Promise.all([
    startTestServer(),
    startTestServer({ arBudget: false }),
    startTestServer({ budgetTriangles: 5000, budgetMeshPrims: 4, budgetTexturePx: 256, budgetPackageBytes: 2 * 1024 * 1024 }),
  ]);
});
afterAll(() => Promise.all([budgeted?.stop(), unbudgeted?.stop(), tight?.stop()]));

/** Posts one model with the fields, expects 201, returns the detail record. */
async function detailOf(t: TestServer, path: string, model: string, fields: Record<string, string>) {
  const body = form({ model_file: filePart(model), ...fields });
  if (path === 'by_refimage') body.append('reference_image', new Blob([ONE_PIXEL_PNG]), 'poster.png');
  const r = await postSession(t, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return (await getDetail(t, sessionIdOf(r.body.deeplink))).body;
}

/** A record without its URLs (they name the session). */
function withoutUrls(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (k, v: unknown) => (k.endsWith('_url') ? undefined : v)));
}

describe('the AR budget through the server', () => {
  it('the detail record states source and delivered figures, the steps and the measured deviation', async () => {
    const detail = await detailOf(budgeted, 'by_plane', ISSUE_021, {});
    const asset = detail.model_assets[0];
    const b = asset.ar_budget;
    expect(b).toMatchObject({
      within_budget: true,
      steps: ['merged', 'simplified'],
      limits: { triangles: 100_000, mesh_prims: 200, texture_px: 2048, package_bytes: 25 * 1024 * 1024 },
    });
    expect(b.source).toMatchObject({ triangles: 261_069, mesh_prims: 2636, largest_texture_px: 0, bytes: asset.source_bytes });
    expect(b.delivered).toMatchObject({ triangles: asset.triangles, mesh_prims: asset.draw_calls, bytes: asset.usdz_bytes });
    expect(b.delivered.triangles).toBeLessThanOrEqual(100_000);
    expect(b.max_deviation_m).toBeGreaterThan(0);
    expect(asset.warnings.map((w: { code: string }) => w.code)).toEqual(expect.arrayContaining(['budget_merged', 'budget_simplified']));
    // What each category gave up: rows that add up to the model, the envelope first and nearly as read.
    const rows = b.categories as Array<{
      category: string;
      source_triangles: number;
      delivered_triangles: number;
      max_deviation_m: number;
    }>;
    expect(rows[0]!.category).toBe('envelope');
    expect(rows.reduce((n, c) => n + c.source_triangles, 0)).toBe(261_069);
    expect(rows.reduce((n, c) => n + c.delivered_triangles, 0)).toBe(asset.triangles);
    expect(Math.max(...rows.map((c) => c.max_deviation_m))).toBe(b.max_deviation_m);
    // The session page says it too.
    const page = await (await fetch(detail.page_url)).text();
    // The building itself apart from its details: what moved, and what stands as a box or is gone.
    expect(page).toContain(
      `<dt>Made lighter for AR</dt><dd>261,069 → ${asset.triangles.toLocaleString('en-US')} ` +
        `triangles, 2,636 → ${asset.draw_calls} meshes; ` +
        `the building itself (walls, slabs, roofs, openings, structure) within ` +
        `${(rows[0]!.max_deviation_m * 1000).toFixed(1)} mm of the model; `,
    );
    const clutter = rows.slice(1).filter((c) => c.source_triangles > 0) as unknown as Array<{ category: string; proxied_elements: number }>;
    expect(page).toMatch(
      new RegExp(
        `; ${clutter.map((c) => (c.category === 'mep' ? 'MEP' : c.category === 'other' ? 'other details' : c.category)).join(', ')} ` +
          `(within [0-9.]+ (mm|cm|m)|as modelled)`,
      ),
    );
    // The USDZ served is the simplified one.
    const usdz = new Uint8Array(await (await fetch(asset.usdz_url)).arrayBuffer());
    expect((await readUsdz(usdz)).stats.triangles).toBe(asset.triangles);
  });

  it('without a budget the model is delivered as read, and the record says there was none', async () => {
    const detail = await detailOf(unbudgeted, 'by_plane', ISSUE_021, {});
    expect(detail.model_assets[0].ar_budget).toBeNull();
    expect(detail.model_assets[0].triangles).toBe(261_069);
  });

  it('a server with its own limits holds every delivered file to them: triangles, prims, texture size, package bytes', async () => {
    for (const model of [ISSUE_021, AC20, corpusPath('glb', 'DamagedHelmet.glb')]) {
      const asset = (await detailOf(tight, 'by_plane', model, {})).model_assets[0];
      const b = asset.ar_budget;
      expect(b.limits).toEqual({ triangles: 5000, mesh_prims: 4, texture_px: 256, package_bytes: 2 * 1024 * 1024 });
      expect(b.within_budget, model).toBe(true);
      expect(asset.triangles).toBeLessThanOrEqual(5000);
      expect(asset.draw_calls).toBeLessThanOrEqual(4);
      expect(b.delivered.largest_texture_px).toBeLessThanOrEqual(256);
      expect(asset.usdz_bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
      // The GLB for the page and Scene Viewer is held to the same budget as the USDZ.
      const glb = await (await fetch(asset.glb_url)).arrayBuffer();
      expect(glb.byteLength).toBeLessThan(2 * 1024 * 1024);
    }
  });

  it('every placement method answers the same with and without a budget, for a model the budget changes', async () => {
    const { viewer, gaze } = await ac20DoorView();
    const cases: Array<[string, string, Record<string, string>]> = [
      ['by_plane', ISSUE_021, {}],
      ['by_scan', AC20, { 'alignment.point_1': JSON.stringify(viewer), 'alignment.point_2': JSON.stringify(gaze) }],
      [
        'by_scan',
        ISSUE_021,
        { 'alignment.corners': '[[-0.45, 0, 1], [0.45, 0, 1], [0.45, 2.1, 1], [-0.45, 2.1, 1]]', 'alignment.wall_normal': '[0, 0, 1]' },
      ],
      [
        'by_virtual_anchor/segment-directional',
        ISSUE_021,
        {
          'virtual_anchor.anchor_type': 'segment_directional',
          'virtual_anchor.segment_point_1': '[0, 0, 0]',
          'virtual_anchor.segment_point_2': '[2, 0, 1]',
          'virtual_anchor.plane_normal': '[0, 1, 0]',
          'virtual_anchor.placement_source': 'model_surface',
        },
      ],
      [
        'by_virtual_anchor/rectangle-short-side',
        AC20,
        {
          'virtual_anchor.anchor_type': 'rectangle_short_side',
          'virtual_anchor.center': '[1, 0, 2]',
          'virtual_anchor.width': '0.6',
          'virtual_anchor.height': '1.2',
          'virtual_anchor.plane_normal': '[0, 1, 0]',
          'virtual_anchor.short_side_direction': '[1, 0, 0]',
        },
      ],
      [
        'by_refimage',
        ISSUE_021,
        {
          'reference_image.physical_width': '0.3',
          'reference_image.center': '[0, 1.5, 0]',
          'reference_image.normal': '[0, 0, 1]',
          'reference_image.up': '[0, 1, 0]',
        },
      ],
    ];
    for (const [path, model, fields] of cases) {
      const [a, b, c] = (await Promise.all([budgeted, unbudgeted, tight].map((t) => detailOf(t, path, model, fields)))) as [
        Awaited<ReturnType<typeof detailOf>>,
        Awaited<ReturnType<typeof detailOf>>,
        Awaited<ReturnType<typeof detailOf>>,
      ];
      expect(a.model_assets[0].ar_budget.steps.length, `${path} ${model}`).toBeGreaterThan(0);
      // Over the tight budget's triangles, AC20 is simplified as it is read; a door is still looked for on the full model.
      if (model === AC20)
        expect(c.model_assets[0].warnings.find((w: { code: string }) => w.code === 'budget_simplified')?.message, path).toMatch(
          /as they streamed in/,
        );
      expect(withoutUrls(a.placement), `${path} ${model}`).toEqual(withoutUrls(b.placement));
      expect(withoutUrls(c.placement), `${path} ${model}`).toEqual(withoutUrls(b.placement));
      expect(a.model_frame).toEqual(b.model_frame);
      expect(c.model_frame).toEqual(b.model_frame);
      expect(a.model_assets[0].bounds).toEqual(b.model_assets[0].bounds);
      expect(a.model_assets[0].offset).toEqual(b.model_assets[0].offset);
    }
  });
});
