import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerMetrics } from './ServerMetrics.js';

/** A listener that serves only Prometheus' scrape. */
export interface MetricsListener {
  /** `http://host:port/metrics`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` on its own port, apart from the public API (`ARSESSION_METRICS_PORT`): for
 * worker processes, which have no HTTP otherwise, and API nodes whose scrape should stay off the
 * public path. Anything else answers 404.
 *
 * @example
 * ```ts
 * const listener = await startMetricsListener(metrics, '127.0.0.1', 9464);
 * await fetch(listener.url);
 * ```
 */
export async function startMetricsListener(metrics: ServerMetrics, host: string, port: number): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://x').pathname !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('only GET /metrics is served here\n');
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.contentType }).end(text),
      (err: unknown) =>
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics could not be collected: ${(err as Error).message}\n`),
    );
  });
  server.listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const bound = (server.address() as AddressInfo).port;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
