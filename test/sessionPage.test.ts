// The session page (`GET /s/{id}`) in a real browser (Debian's Chromium through playwright-core)
// against a real server on loopback: for a session of each placement method the 3D preview loads
// (model-viewer's `load` event) and draws something (its pixels vary), the QR code decodes to the
// deep link, the page asks nothing of any other host, the text parts are there without JavaScript,
// it fits a phone, and an expired session's page says so (410); a by_plane footprint shows round
// the model's foot, and a placement too far away to draw is said in words over the model alone.
import { readFileSync } from 'node:fs';
import jsQRModule from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIfc } from '@arsession/convert';
import { ac20DoorView } from './support/ac20DoorView.js';
import { launchChromium } from './support/browser.js';
import { corpusPath } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';

// jsQR is CommonJS whose export is the function itself; its types describe an ES default export.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;
const BOX = corpusPath('glb', 'BoxTextured.glb');

let t: TestServer;
let browser: Browser;
beforeAll(async () => {
  t = await startTestServer();
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t.stop();
});

/** A session of `path`, its id and detail record. */
async function session(
  path: string,
  fields: Record<string, string | [Blob, string]>,
  model = BOX,
): Promise<{ id: string; detail: Record<string, any>; code: string }> {
  const r = await postSession(t, path, form({ model_file: filePart(model), ...fields }));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const id = sessionIdOf(r.body.deeplink);
  return { id, detail: (await getDetail(t, id)).body, code: r.body.onetime_code };
}

/** Opens the page, recording every request that leaves this machine. */
async function open(
  id: string,
  options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<{ page: Page; elsewhere: string[]; status: number }> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: options.viewport ?? { width: 1280, height: 1000 },
  });
  const page = await context.newPage();
  const elsewhere: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!['data:', 'blob:'].includes(url.protocol) && url.hostname !== '127.0.0.1') elsewhere.push(r.url());
  });
  const response = await page.goto(`${t.url}/s/${id}`);
  return { page, elsewhere, status: response!.status() };
}

/**
 * Waits for model-viewer's `load` event (or its error), up to a minute: software WebGL is slow.
 * (Run in the page, written as text: these tests are typed for Node, not the DOM.)
 */
function modelLoaded(page: Page): Promise<string> {
  return page.evaluate(`new Promise((resolve) => {
    const viewer = document.querySelector('model-viewer');
    if (!viewer) return resolve('no model-viewer');
    if (viewer.loaded) return resolve('load');
    viewer.addEventListener('load', () => resolve('load'), { once: true });
    viewer.addEventListener('error', (e) => resolve('error ' + JSON.stringify(e.detail)), { once: true });
    setTimeout(() => resolve('no load event within 60 s'), 60000);
  })`);
}

/** The spread of a screenshot's pixel values: a blank (one colour) picture has none. */
function pixelVariance(png: Buffer): number {
  const { data } = PNG.sync.read(png);
  let sum = 0,
    squares = 0,
    n = 0;
  for (let i = 0; i < data.length; i += 4) {
    const luma = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
    sum += luma;
    squares += luma * luma;
    n++;
  }
  return squares / n - (sum / n) ** 2;
}

function decodeQr(png: Buffer): string | undefined {
  const { data, width, height } = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width, height)?.data;
}

const METHODS: Array<[string, () => Promise<{ id: string; detail: Record<string, any>; code: string }>]> = [
  ['by_plane', () => session('by_plane', {})],
  [
    'by_scan, a door found in an IFC',
    async () => {
      const { viewer, gaze } = await ac20DoorView();
      return session(
        'by_scan',
        { 'alignment.point_1': JSON.stringify(viewer), 'alignment.point_2': JSON.stringify(gaze) },
        corpusPath('ifc', 'AC20-FZK-Haus.ifc'),
      );
    },
  ],
  [
    'by_virtual_anchor (circle)',
    () =>
      session('by_virtual_anchor/circle-directional', {
        'virtual_anchor.center': '[0, 0, 0]',
        'virtual_anchor.radius': '0.5',
        'virtual_anchor.plane_normal': '[0, 1, 0]',
        'virtual_anchor.direction': '[1, 0, 0]',
      }),
  ],
  [
    'by_refimage',
    () =>
      session('by_refimage', {
        reference_image: [new Blob([ONE_PIXEL_PNG]), 'poster.png'],
        'reference_image.physical_width': '0.3',
        'reference_image.center': '[0, 1.5, 0]',
        'reference_image.normal': '[0, 0, 1]',
        'reference_image.up': '[0, 1, 0]',
      }),
  ],
];

describe.each(METHODS)('the page of a %s session', (_, make) => {
  it('previews the model with its placement, the QR code decodes to the deep link, nothing is asked of another host', async () => {
    const { id, detail, code } = await make();
    const { page, elsewhere, status } = await open(id);
    try {
      expect(status).toBe(200);
      expect(await modelLoaded(page)).toBe('load');
      // Let the first frames render (software WebGL), then look at the preview.
      await page.waitForTimeout(500);
      const preview = await page.locator('model-viewer').screenshot();
      // The empty preview (its background gradient) measures about 50; a drawn model 250 (a small
      // box seen from the reference image above it) to 1200.
      expect(pixelVariance(preview)).toBeGreaterThan(150);
      expect(decodeQr(await page.locator('#qr').screenshot())).toBe(detail.deeplink);
      expect(await page.locator('#onetime-code').textContent()).toBe(code.replace(/(\d{4})(?=\d)/g, '$1 '));
      expect(await page.locator('#deeplink').getAttribute('href')).toBe(detail.deeplink);
      // AR on both platforms: iOS's Quick Look link to the package that anchors itself, Android's Scene Viewer to the GLB.
      expect(await page.locator('#ar-quick-look').getAttribute('href')).toBe(detail.model_assets[0].quick_look.usdz_url);
      expect(await page.locator('#ar-quick-look').getAttribute('rel')).toBe('ar');
      expect(await page.locator('model-viewer').getAttribute('ios-src')).toBe(detail.model_assets[0].quick_look.usdz_url);
      expect(await page.locator('#ar-scene-viewer').getAttribute('href')).toContain(encodeURIComponent(detail.model_assets[0].glb_url));
      expect(await page.locator('model-viewer').getAttribute('src')).toBe(detail.preview_glb_url);
      // The countdown runs: a time left, not the timestamp.
      expect(await page.locator('#expires').textContent()).toMatch(/^in \d+ h \d+ min/);
      expect(elsewhere).toEqual([]);
    } finally {
      await page.context().close();
    }
  }, 120_000);
});

/** How many pixels of a screenshot are the footprint's yellow. */
function yellowPixels(png: Buffer): number {
  const { data } = PNG.sync.read(png);
  let n = 0;
  for (let i = 0; i < data.length; i += 4)
    if (data[i]! > 180 && data[i + 1]! > 160 && data[i + 2]! < 150 && data[i]! - data[i + 2]! > 70) n++;
  return n;
}

describe('what the preview shows of a placement', () => {
  it("a by_plane session shows the footprint around the model, seen from model-viewer's own camera", async () => {
    const { id } = await session('by_plane', {});
    const { page } = await open(id);
    try {
      expect(await modelLoaded(page)).toBe('load');
      await page.waitForTimeout(500);
      // Some 4,000 of the 360,000 pixels of a 1 m box's preview: a band all round its foot.
      expect(yellowPixels(await page.locator('model-viewer').screenshot())).toBeGreaterThan(2000);
    } finally {
      await page.context().close();
    }
  }, 120_000);

  it("an anchor 10,000 km away is said in words, with the request's " +
    'warning, and the preview shows the model, not an empty view', async () => {
    const { id, detail } = await session('by_virtual_anchor/circle-directional', {
      'virtual_anchor.center': '[1e7, 0, 0]',
      'virtual_anchor.radius': '0.5',
      'virtual_anchor.plane_normal': '[0, 1, 0]',
      'virtual_anchor.direction': '[1, 0, 0]',
    });
    expect(detail.placement.warnings.map((w: { code: string }) => w.code)).toEqual(['anchor_far_from_model']);
    const { page } = await open(id);
    try {
      expect(await page.locator('#placement-far').textContent()).toMatch(
        /^The anchor lies 10,000 km outside the model, too far to draw beside it/,
      );
      expect(await page.locator('#placement-warnings').textContent()).toContain(detail.placement.warnings[0].message);
      expect(await modelLoaded(page)).toBe('load');
      await page.waitForTimeout(500);
      expect(pixelVariance(await page.locator('model-viewer').screenshot())).toBeGreaterThan(150);
    } finally {
      await page.context().close();
    }
  }, 120_000);
});

describe("the page without a browser's extras", () => {
  it('says everything but the 3D preview without JavaScript', async () => {
    const { id, detail, code } = await session('by_plane', {});
    const { page, status } = await open(id, { javaScriptEnabled: false });
    try {
      expect(status).toBe(200);
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText(), the text a reader sees, is what is tested
      const body = await page.locator('body').innerText();
      expect(body).toContain(code.replace(/(\d{4})(?=\d)/g, '$1 '));
      expect(body).toContain(detail.deeplink);
      expect(body).toMatch(/in 23 h 59 min|in 1 d 0 h/);
      expect(body).toContain(detail.model_assets[0].triangles.toLocaleString('en-US'));
      expect(await page.locator('#qr svg').count()).toBe(1);
    } finally {
      await page.context().close();
    }
  }, 60_000);

  it('fits a phone: nothing wider than the screen', async () => {
    const { id } = await session('by_plane', {});
    const { page } = await open(id, { viewport: { width: 390, height: 844 } });
    try {
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    } finally {
      await page.context().close();
    }
  }, 60_000);
});

describe('pages of sessions that are not there', () => {
  it("an expired session's page says so (410); an unknown one says there is none (404)", async () => {
    const short = await startTestServer({ sessionTtlSeconds: 1 });
    try {
      const r = await postSession(short, 'by_plane', form({ model_file: [new Blob([readFileSync(BOX)]), 'box.glb'] }));
      expect(r.status).toBe(201);
      await new Promise((done) => setTimeout(done, 1200));
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        const expired = await page.goto(`${short.url}/s/${sessionIdOf(r.body.deeplink)}`);
        expect(expired!.status()).toBe(410);
        expect(await page.locator('h1').textContent()).toBe('This AR session has expired');
        const unknown = await page.goto(`${short.url}/s/AAAAAAAAAAAAAAAAAAAAAA`);
        expect(unknown!.status()).toBe(404);
        expect(await page.locator('h1').textContent()).toBe('There is no such AR session');
      } finally {
        await context.close();
      }
    } finally {
      await short.stop();
    }
  }, 60_000);
});

describe('the preview of an IFC: storeys to switch, and a click names its element', () => {
  /** Polls an expression in the page (the page's CSP forbids waitForFunction's eval) until it is true. */
  async function waitFor(page: Page, expression: string, timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!(await page.evaluate(expression))) {
      if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms: ${expression}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Turns the camera to look down on the model from above, at once, and waits for a frame drawn so. */
  async function lookDown(page: Page, target: number[]): Promise<void> {
    await page.evaluate(`(async () => {
      const viewer = document.querySelector('model-viewer');
      viewer.cameraTarget = '${target.map((v) => `${v}m`).join(' ')}';
      viewer.cameraOrbit = '30deg 10deg 40m';
      viewer.jumpCameraToGoal();
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      await new Promise((r) => setTimeout(r, 300));
    })()`);
  }

  /** Clicks the middle of the preview; returns the surface model-viewer hit there and the record the page shows. */
  async function clickMiddle(page: Page): Promise<{ hit: number[]; shown: Record<string, string> }> {
    const box = (await page.locator('model-viewer').boundingBox())!;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    const hit = (await page.evaluate(
      `(() => {
        const p = document.querySelector('model-viewer').positionAndNormalFromPoint(${x}, ${y});
        return p && [p.position.x, p.position.y, p.position.z];
      })()`,
    )) as number[];
    await page.evaluate(`document.getElementById('element').dataset.record = ''`);
    await page.mouse.click(x, y);
    await waitFor(page, `document.getElementById('element').dataset.record === 'shown'`, 20_000);
    const shown = (await page.evaluate(`(() => {
      const panel = document.getElementById('element');
      const terms = [...panel.querySelectorAll('dt')].map((d) => d.textContent);
      const values = [...panel.querySelectorAll('dd')].map((d) => d.textContent);
      return Object.fromEntries(terms.map((t, i) => [t, values[i]]));
    })()`)) as Record<string, string>;
    return { hit, shown };
  }

  it('AC20 from above: the roof, then with the ground floor shown alone, what lies on it', async () => {
    const { id, detail } = await session('by_plane', {}, corpusPath('ifc', 'AC20-FZK-Haus.ifc'));
    const { page } = await open(id);
    try {
      expect(await modelLoaded(page)).toBe('load');
      await waitFor(page, `document.querySelector('model-viewer').dataset.picking === 'ready'`, 60_000);
      const buttons = await page.locator('#storeys button').allTextContents();
      expect(buttons).toEqual(['All storeys', ...(detail.model_assets[0].storeys as Array<{ name: string }>).map((s) => s.name)]);

      const { min, max } = detail.model_assets[0].bounds as { min: number[]; max: number[] };
      const centre = min.map((v, k) => (v + max[k]!) / 2);
      await lookDown(page, centre);
      // A screenshot waits for the element to hold still over two frames, which in software WebGL
      // on a loaded 2-core machine took past Playwright's 30 s.
      const before = await page.locator('model-viewer').screenshot({ timeout: 90_000 });
      const roof = await clickMiddle(page);
      expect(roof.shown.Storey).toBe('Dachgeschoss');

      // The element named is one whose geometry is where the click hit (its bounds, within 5 cm).
      const scene = await readIfc(readFileSync(corpusPath('ifc', 'AC20-FZK-Haus.ifc')));
      const at = (globalId: string) => {
        const node = scene.nodes.find((n) => n.metadata.globalId === globalId)!;
        const points = node.meshes.flatMap((m) => Array.from(scene.meshes[m]!.positions));
        return [0, 1, 2].map((k) => {
          const axis = points.filter((_, i) => i % 3 === k);
          return [Math.min(...axis) - 0.05, Math.max(...axis) + 0.05];
        });
      };
      const roofBounds = at(roof.shown.GlobalId!);
      for (let k = 0; k < 3; k++) {
        expect(roof.hit[k]).toBeGreaterThanOrEqual(roofBounds[k]![0]!);
        expect(roof.hit[k]).toBeLessThanOrEqual(roofBounds[k]![1]!);
      }

      await page.locator('#storeys button', { hasText: 'Erdgeschoss' }).click();
      expect(await page.evaluate(`document.querySelector('model-viewer').variantName`)).toBe('Erdgeschoss');
      await page.evaluate(`new Promise((r) => setTimeout(r, 500))`);
      const after = await page.locator('model-viewer').screenshot({ timeout: 90_000 });
      expect(after.equals(before)).toBe(false);
      // The same pixel now passes the hidden roof and upper floor: what it names is on the ground floor.
      const ground = await clickMiddle(page);
      expect(ground.shown.Storey).toBe('Erdgeschoss');
      expect(ground.shown.GlobalId).not.toBe(roof.shown.GlobalId);

      await page.locator('#storeys button', { hasText: 'All storeys' }).click();
      expect(await page.evaluate(`document.querySelector('model-viewer').variantName`)).toBeNull();
    } finally {
      await page.context().close();
    }
    // Three renders and two picks in software WebGL: 31 s alone on a slow 2-core machine, past
    // 100 s there beside the rest of the suite.
  }, 300_000);
});
