// The monitoring shipped in deploy/: the alert rules checked and unit-tested by Prometheus' own
// promtool, and every query of the Grafana dashboard and the rules run by a real Prometheus
// scraping a real server, on series that server exports.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPrometheus, type PrometheusServer } from '@arsession/bench/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { filePart, form, postSession, startTestServer, type TestServer } from './support/serverHarness.js';

const DEPLOY = join(import.meta.dirname, '..', 'deploy');
const RULES = join(DEPLOY, 'prometheus', 'alerts.yml');
const DASHBOARD = JSON.parse(readFileSync(join(DEPLOY, 'grafana', 'arsession-dashboard.json'), 'utf8')) as {
  uid: string;
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
};
const PANEL_EXPRS = DASHBOARD.panels.flatMap((p) => p.targets.map((t) => ({ panel: p.title, expr: t.expr })));

/** Metric names a text mentions (ours and Node's). */
const namesIn = (text: string) => new Set(text.match(/\b(arsession|nodejs|process)_[a-z0-9_]+\b/g) ?? []);

/** Every sample name a scrape can hold, from its TYPE lines (a counter never increased has no sample yet). */
function exportedNames(scrape: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name! + s);
    if (type === 'summary') for (const s of ['_sum', '_count']) names.add(name! + s);
  }
  return names;
}

describe('deploy/prometheus/alerts.yml', () => {
  it('passes promtool check rules', () => {
    expect(execFileSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' })).toMatch(/SUCCESS: 6 rules found/);
  });

  it('fires, and stays quiet, as its unit tests say (promtool test rules)', () => {
    expect(execFileSync('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: join(DEPLOY, 'prometheus'), encoding: 'utf8' })).toMatch(
      /SUCCESS/,
    );
  });
});

describe('the rules and the dashboard against a real server and a real Prometheus', () => {
  let t: TestServer;
  let prometheus: PrometheusServer;
  let scrape: string;
  beforeAll(async () => {
    // Prometheus scrapes a metrics port of the server's own, as a deployment would.
    t = await startTestServer({ metricsPort: 0 });
    const created = await postSession(t, 'by_plane', form({ model_file: filePart(corpusPath('glb', 'Box.glb')) }));
    expect(created.status).toBe(201);
    // The same model again: placed from the conversion cache.
    expect((await postSession(t, 'by_plane', form({ model_file: filePart(corpusPath('glb', 'Box.glb')) }))).status).toBe(201);
    const claim = await fetch(`${t.url}/api/vision/v1/session/claim`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ onetime_code: created.body.onetime_code }),
    });
    expect(claim.status).toBe(200);
    prometheus = await startPrometheus([t.server.metricsUrl!]);
    scrape = await (await fetch(t.server.metricsUrl!)).text();
  });
  afterAll(async () => {
    await prometheus?.stop();
    await t?.stop();
  });

  it('name only series the server exports', () => {
    const exported = exportedNames(scrape);
    const used = new Set([...namesIn(readFileSync(RULES, 'utf8')), ...PANEL_EXPRS.flatMap((p) => [...namesIn(p.expr)])]);
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((n) => !exported.has(n))).toEqual([]);
  });

  it('every panel query is one Prometheus runs, and the session made shows in them', async () => {
    expect(PANEL_EXPRS.length).toBeGreaterThanOrEqual(16);
    // Two scrapes at least, for rates.
    const scrapes = async () => (await prometheus.query('count_over_time(arsession_sessions_created_total[1m])'))[0]?.value ?? 0;
    for (let i = 0; i < 60 && (await scrapes()) < 2; i++) await new Promise((r) => setTimeout(r, 500));
    expect(await scrapes()).toBeGreaterThanOrEqual(2);
    // Panels of what this server did (sessions, a cache hit, a claim, no failures) have data; the failure panels have none to show.
    // (and a young process may not have collected garbage yet).
    const quiet = ['Share of requests answered 5xx', 'Backing-service errors per second', 'GC time per second, by instance'];
    for (const { panel, expr } of PANEL_EXPRS) {
      // Grafana's own interval, as it would send it.
      const result = await prometheus.query(expr.replaceAll('$__rate_interval', '1m'));
      if (!quiet.includes(panel)) expect(result.length, panel).toBeGreaterThan(0);
    }
    const sessions = PANEL_EXPRS.find((p) => p.panel.startsWith('Sessions created'))!.expr.replaceAll('$__rate_interval', '1m');
    expect((await prometheus.query(sessions)).map((s) => s.metric.method)).toEqual(['by_plane']);
    const up = PANEL_EXPRS.find((p) => p.panel.startsWith('Targets answering'))!.expr;
    expect((await prometheus.query(up)).map((s) => s.value)).toEqual([1]);
  });
});
