#!/usr/bin/env node
// Makes docs/session-page.png, docs/SERVER.md's picture of a session page: AC20-FZK-Haus placed by its
// front door (by_scan mode 1, the door found by the server), in Debian's Chromium at a laptop's width.
//
//   node scripts/session-page-screenshot.mjs [out.png]      after `node scripts/build.mjs`
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readIfc } from '@arsession/convert';
import { readServerConfig, startServer } from '@arsession/server';
import { chromium } from 'playwright-core';
import { pino } from 'pino';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? join(root, 'docs', 'session-page.png');
const ifc = join(root, '..', 'shared', 'corpus', 'ifc', 'AC20-FZK-Haus.ifc');

// A viewer 2 m outside the front door (Haustuer), at eye height, looking at its centre.
const scene = await readIfc(readFileSync(ifc));
const middle = [0, 1, 2].map((k) => (scene.bounds.min[k] + scene.bounds.max[k]) / 2);
const faceCentre = (f) => [0, 1, 2].map((k) => f.corners.reduce((s, c) => s + c[k] / 4, 0));
const outward = (f) => [0, 1, 2].reduce((s, k) => s + (faceCentre(f)[k] - middle[k]) * f.normal[k], 0);
const face = scene.doorOpenings.find((d) => d.door.name === 'Haustuer').faces.sort((a, b) => outward(b) - outward(a))[0];
const centre = faceCentre(face).map((v, k) => v + scene.offset[k]);
const viewer = [centre[0] + 2 * face.normal[0], face.corners[0][1] + scene.offset[1] + 1.6, centre[2] + 2 * face.normal[2]];
const gaze = centre.map((v, k) => v - viewer[k]);

const dataDir = mkdtempSync(join(tmpdir(), 'arsession-screenshot-'));
const server = await startServer(readServerConfig({}, { port: 0, host: '127.0.0.1', dataDir }), { logger: pino({ level: 'silent' }) });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
});
try {
  const key = await server.context.sessions.createApiKey('docs');
  const form = new FormData();
  form.append('model_file', new Blob([readFileSync(ifc)]), 'AC20-FZK-Haus.ifc');
  form.append('alignment.point_1', JSON.stringify(viewer));
  form.append('alignment.point_2', JSON.stringify(gaze));
  const created = await fetch(`${server.url}/api/vision/v1/session/by_scan/`, {
    method: 'POST',
    body: form,
    headers: { 'X-API-Key': key },
  });
  if (created.status !== 201) throw new Error(`by_scan answered ${created.status}: ${await created.text()}`);
  const id = (await created.json()).deeplink.split('/').pop();
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(`${server.url}/s/${id}`);
  await page.evaluate(`new Promise((resolve, reject) => {
    const viewer = document.querySelector('model-viewer');
    if (viewer.loaded) return resolve();
    viewer.addEventListener('load', () => resolve(), { once: true });
    setTimeout(() => reject(new Error('model-viewer did not load within 60 s')), 60000);
  })`);
  await page.waitForTimeout(1500);
  writeFileSync(out, await page.screenshot({ fullPage: true }));
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close(1000);
  rmSync(dataDir, { recursive: true, force: true });
}
