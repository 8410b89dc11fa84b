import type { Request, Response } from 'express';
import type { ServerMetrics } from './ServerMetrics.js';

/** Where Prometheus scrapes an API node that has no metrics port of its own. */
export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics`: every metric of the process in Prometheus' text format. Not behind keys, like
 * `/healthz`; an operator who wants it off the public port sets `ARSESSION_METRICS_PORT`.
 *
 * @example
 * ```ts
 * app.get(METRICS_PATH, metricsRoute(ctx.metrics));
 * ```
 */
export function metricsRoute(metrics: ServerMetrics): (req: Request, res: Response) => Promise<void> {
  return async (_req: Request, res: Response): Promise<void> => {
    res.set('Cache-Control', 'no-store').type(metrics.contentType).send(await metrics.text());
  };
}
