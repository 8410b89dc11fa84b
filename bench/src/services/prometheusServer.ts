import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killProcess } from './processes.js';

/** One series of an instant query: its labels and value. */
export interface PrometheusSample {
  metric: Record<string, string>;
  value: number;
}

/** A private Prometheus on a loopback port, scraping the given targets. */
export interface PrometheusServer {
  url: string;
  /** An instant query through the HTTP API (`/api/v1/query`). */
  query(expr: string): Promise<PrometheusSample[]>;
  stop(): Promise<void>;
}

/**
 * Starts Debian's `prometheus` on a free loopback port, its TSDB in a temporary directory, scraping
 * `targets` (`http://host:port/path` each) every `scrapeSeconds`, and resolves once it is ready.
 *
 * @example
 * ```ts
 * const prometheus = await startPrometheus(['http://127.0.0.1:9464/metrics']);
 * await prometheus.query('up'); // → [{ metric: { instance: '127.0.0.1:9464', … }, value: 1 }]
 * await prometheus.stop();
 * ```
 */
export async function startPrometheus(targets: readonly string[], scrapeSeconds = 1): Promise<PrometheusServer> {
  try {
    execFileSync('which', ['prometheus'], { stdio: 'ignore' });
  } catch {
    throw new Error('prometheus is not installed: apt-get install prometheus (scripts/install-test-services.sh installs it)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'arsession-prometheus-'));
  // A job per metrics path: Prometheus takes the path per job, the address per target.
  const byPath = new Map<string, string[]>();
  for (const t of targets) {
    const u = new URL(t);
    byPath.set(u.pathname, [...(byPath.get(u.pathname) ?? []), u.host]);
  }
  const jobs = [...byPath].map(([path, hosts], i) =>
    [
      `  - job_name: arsession_${i}`,
      `    metrics_path: ${JSON.stringify(path)}`,
      `    scrape_interval: ${scrapeSeconds}s`,
      `    scrape_timeout: ${scrapeSeconds}s`,
      `    static_configs:`,
      `      - targets: ${JSON.stringify(hosts)}`,
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'prometheus.yml'),
    `global:\n  scrape_interval: ${scrapeSeconds}s\n  evaluation_interval: ${scrapeSeconds}s\nscrape_configs:\n${jobs.join('\n')}\n`,
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.console.templates=/dev/null',
      '--web.console.libraries=/dev/null',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr!.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
  });
  const stop = async () => {
    await killProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 300 || child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus did not start: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async query(expr) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      const body = (await res.json()) as {
        status: string;
        error?: string;
        data?: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
      };
      if (body.status !== 'success') throw new Error(`prometheus query ${expr} failed: ${body.error}`);
      return body.data!.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    stop,
  };
}
