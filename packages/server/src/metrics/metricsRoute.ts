import type { Request, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/ApiError.js';
import type { ServerMetrics } from './ServerMetrics.js';

/** Where Prometheus scrapes an API node that has no metrics port of its own. */
export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics`: every metric of the process in Prometheus' text format. On its own port
 * (`ARSESSION_METRICS_PORT`) it asks nothing; on the public port it is served only with a `token`
 * (`ARSESSION_METRICS_TOKEN`), sent as `Authorization: Bearer …` (Prometheus' `authorization`
 * setting), compared in constant time; anything else is 401.
 *
 * @example
 * ```ts
 * app.get(METRICS_PATH, metricsRoute(ctx.metrics, ctx.config.metricsToken));
 * ```
 */
export function metricsRoute(metrics: ServerMetrics, token?: string): (req: Request, res: Response) => Promise<void> {
  const expected = token === undefined ? undefined : createHash('sha256').update(token).digest();
  return async (req: Request, res: Response): Promise<void> => {
    if (expected) {
      const given = /^Bearer (\S+)$/.exec(req.get('Authorization') ?? '')?.[1] ?? '';
      // Hashed first: equal lengths for the comparison, and nothing learnt from the time it takes.
      if (!timingSafeEqual(createHash('sha256').update(given).digest(), expected)) {
        throw new ApiError(
          401,
          'metrics_token_invalid',
          'GET /metrics on this port needs Authorization: Bearer and the metrics token (ARSESSION_METRICS_TOKEN)',
          [{ field: 'Authorization', message: 'missing or wrong metrics token' }],
          { 'WWW-Authenticate': 'Bearer realm="metrics"' },
        );
      }
    }
    res
      .set('Cache-Control', 'no-store')
      .type(metrics.contentType)
      .send(await metrics.text());
  };
}
