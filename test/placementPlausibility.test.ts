// Numbers a newcomer sends that are valid but wrong — centimetres as metres, a door from another
// building, a rectangle's sides swapped, an anchor 10,000 km away — make the session, and its
// placement says which looks like a mistake, by code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';

const AC20 = corpusPath('ifc', 'AC20-FZK-Haus.ifc');

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

async function warningsOf(
  path: string,
  fields: Record<string, string | [Blob, string]>,
): Promise<Array<{ code: string; message: string }>> {
  const r = await postSession(t, path, form({ model_file: filePart(AC20), ...fields }));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return (await getDetail(t, sessionIdOf(r.body.deeplink as string))).body.placement.warnings;
}

describe('plausibility warnings on the placement', () => {
  it('a 30 m wide reference image (centimetres typed as metres)', async () => {
    const warnings = await warningsOf('by_refimage', {
      reference_image: [new Blob([ONE_PIXEL_PNG]), 'poster.png'],
      'reference_image.physical_width': '30',
      'reference_image.center': '[0, 1.5, -2]',
      'reference_image.normal': '[0, 0, 1]',
      'reference_image.up': '[0, 1, 0]',
    });
    expect(warnings).toEqual([{ code: 'implausible_image_width', message: expect.stringContaining('30 m') }]);
  });

  it('door corners 85 m outside the model', async () => {
    const warnings = await warningsOf('by_scan', {
      'alignment.corners': '[[100.65, 0, -4.557], [100.65, 0, -5.443], [100.65, 2.01, -5.443], [100.65, 2.01, -4.557]]',
      'alignment.wall_normal': '[1, 0, 0]',
    });
    expect(warnings).toEqual([{ code: 'opening_outside_model', message: expect.stringMatching(/85\.\d m outside/) }]);
  });

  it('a rectangle whose short_side_direction runs along its long side', async () => {
    const warnings = await warningsOf('by_virtual_anchor/rectangle-short-side', {
      'virtual_anchor.center': '[1, 0.75, -2]',
      'virtual_anchor.width': '1.2',
      'virtual_anchor.height': '0.6',
      'virtual_anchor.plane_normal': '[0, 1, 0]',
      'virtual_anchor.short_side_direction': '[1, 0, 0]',
    });
    expect(warnings.map((w) => w.code)).toEqual(['short_side_longer']);
  });

  it('a circle 10,000 km away', async () => {
    const warnings = await warningsOf('by_virtual_anchor/circle-directional', {
      'virtual_anchor.center': '[1e7, 0, 0]',
      'virtual_anchor.radius': '0.5',
      'virtual_anchor.plane_normal': '[0, 1, 0]',
      'virtual_anchor.direction': '[0, 0, -1]',
    });
    expect(warnings.map((w) => w.code)).toEqual(['anchor_far_from_model']);
  });

  it('nothing on an anchor beside the model, within its own size', async () => {
    expect(
      await warningsOf('by_virtual_anchor/circle-directional', {
        'virtual_anchor.center': '[20, 0, 0]',
        'virtual_anchor.radius': '0.5',
        'virtual_anchor.plane_normal': '[0, 1, 0]',
        'virtual_anchor.direction': '[0, 0, -1]',
      }),
    ).toEqual([]);
  });
});
