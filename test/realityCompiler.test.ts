// The Reality file: made by the operator's external compiler (ARSESSION_REALITY_COMPILER), and
// when it is not made, the detail record says whether none is configured or the one configured failed.
import { describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer } from './support/serverHarness.js';

const BOX = corpusPath('glb', 'Box.glb');
const ANCHOR = {
  'virtual_anchor.center': '[0, 0, 0]',
  'virtual_anchor.radius': '0.5',
  'virtual_anchor.plane_normal': '[0, 1, 0]',
  'virtual_anchor.direction': '[1, 0, 0]',
};

/** The first asset of a session made on a server with `realityCompiler`. */
async function assetWith(realityCompiler: string | undefined) {
  const t = await startTestServer(realityCompiler === undefined ? {} : { realityCompiler });
  try {
    const r = await postSession(t, 'by_virtual_anchor/circle-directional', form({ model_file: filePart(BOX), ...ANCHOR }));
    expect(r.status).toBe(201);
    const asset = (await getDetail(t, sessionIdOf(r.body.deeplink))).body.model_assets[0];
    const reality = asset.reality_url ? await fetch(asset.reality_url) : undefined;
    return { asset, realityStatus: reality?.status, realityType: reality?.headers.get('content-type') };
  } finally {
    await t.stop();
  }
}

describe('the Reality compiler', () => {
  it('configured and succeeding: the asset offers its Reality file first', async () => {
    // cp stands in for a compiler: it is called as `<command> <input.usdz> <output.reality>`.
    const { asset, realityStatus, realityType } = await assetWith('cp');
    expect(asset.preferred_format).toBe('reality');
    expect(asset.reality_url).toMatch(/\/files\/0\.reality$/);
    expect(asset.reality_status).toBe('made');
    expect(realityStatus).toBe(200);
    expect(realityType).toBe('model/vnd.reality');
    expect(asset.warnings.map((w: { code: string }) => w.code)).not.toContain('reality_failed');
  });

  it('configured and failing: reality_url null, and a warning says the compiler failed', async () => {
    const { asset } = await assetWith('false');
    expect(asset.reality_url).toBeNull();
    expect(asset.reality_status).toBe('failed');
    expect(asset.preferred_format).toBe('usdz');
    expect(asset.warnings).toContainEqual({ code: 'reality_failed', message: expect.stringContaining('ARSESSION_REALITY_COMPILER') });
  });

  it('not configured: reality_url null without a warning', async () => {
    const { asset } = await assetWith(undefined);
    expect(asset.reality_url).toBeNull();
    expect(asset.reality_status).toBe('not_configured');
    expect(asset.warnings.map((w: { code: string }) => w.code)).not.toContain('reality_failed');
  });
});
