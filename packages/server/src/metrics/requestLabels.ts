import type { Request } from 'express';
import type { BackingService } from './ServerMetrics.js';

/** The backing service each 503 code blames (a conversion that failed in its worker blames none). */
const BACKING_SERVICE_OF: Readonly<Record<string, BackingService>> = {
  store_unavailable: 'store',
  object_store_unavailable: 'objects',
  queue_unavailable: 'queue',
};

/**
 * The backing service a refusal's code says was out of reach, for
 * `arsession_backing_service_errors_total`; undefined for every other code.
 *
 * @example
 * ```ts
 * backingServiceOf('store_unavailable'); // → 'store'
 * ```
 */
export function backingServiceOf(code: string): BackingService | undefined {
  return Object.hasOwn(BACKING_SERVICE_OF, code) ? BACKING_SERVICE_OF[code] : undefined;
}

/**
 * The route template a request matched (`/api/vision/v1/session/:id`), or `unmatched`: the label
 * of its series, so that ids in paths never make a series each.
 *
 * @example
 * ```ts
 * routeOf(req); // → '/api/vision/v1/session/:id'
 * ```
 */
export function routeOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? path : 'unmatched';
}
