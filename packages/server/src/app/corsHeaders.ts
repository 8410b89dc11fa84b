import type { NextFunction, Request, Response } from 'express';

/** Response headers a browser script on an allowed origin may read. */
const EXPOSED = 'Location, X-Request-Id, X-Arsession-Version, Retry-After, ETag, Content-Disposition, Content-Range';
/** What a preflight may ask for: the methods and request headers of the interface. */
const METHODS = 'GET, POST, DELETE';
const HEADERS = 'X-API-Key, Content-Type, If-None-Match, Range, X-Request-Id';

/**
 * CORS for web clients on the origins an operator lists (ARSESSION_CORS_ORIGINS; `*` for any):
 * a request from one of them may read the answer, and a preflight (`OPTIONS` with
 * Access-Control-Request-Method) is answered 204 with what the interface takes. Credentials are
 * the X-API-Key header, never cookies, so no origin is trusted with any. Other origins get no CORS
 * header: their browser keeps the answer from them. With none listed, the middleware does nothing.
 *
 * @example
 * ```ts
 * app.use(corsHeaders(['https://app.example.com']));
 * ```
 */
export function corsHeaders(origins: readonly string[]) {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.get('Origin');
    if (origins.length > 0) res.vary('Origin');
    if (origins.length === 0 || origin === undefined || (!any && !allowed.has(origin))) {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', any ? '*' : origin);
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
    if (req.method !== 'OPTIONS' || req.get('Access-Control-Request-Method') === undefined) {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Methods', METHODS);
    res.setHeader('Access-Control-Allow-Headers', HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}
