// The API reference for people at /docs: the OpenAPI document rendered by Redocly, opened in a real
// browser — every operation listed, nothing loaded from another host, no script refused.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { startTestServer, type TestServer } from './support/serverHarness.js';

/** What the page's functions read of the browser (the tests compile without the DOM's types). */
interface InPage {
  document: { body: { innerText: string; textContent: string } };
}

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

describe('GET /docs', () => {
  it('the root points a person to it', async () => {
    const root = await fetch(`${t.url}/`);
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('<a href="/docs">API reference</a>');
  });

  it('renders every operation of the document in a browser, from this server alone', async () => {
    const doc = (await (await fetch(`${t.url}/api/vision/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    const page = await browser.newPage();
    const elsewhere: string[] = [],
      refused: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(t.url) && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
    page.on('response', (r) => {
      if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') refused.push(m.text());
    });
    const res = await page.goto(`${t.url}/docs`);
    expect(res?.status()).toBe(200);
    // Redoc hydrates the prerendered page: its search control appears once the script has run.
    // biome-ignore lint/performance/useDomNodeTextContent: the text shown, not the script's source that textContent would include
    await page.waitForFunction(() => (globalThis as unknown as InPage).document.body.innerText.includes('Search'), undefined, {
      timeout: 60_000,
    });
    // Every operation is in the navigation (collapsed under its tag until opened).
    const text = await page.evaluate(() => (globalThis as unknown as InPage).document.body.textContent);
    for (const ops of Object.values(doc.paths)) for (const op of Object.values(ops)) expect(text).toContain(op.summary);
    expect(elsewhere, elsewhere.join(', ')).toEqual([]);
    expect(refused, refused.join(', ')).toEqual([]);
    await page.close();
  });
});
