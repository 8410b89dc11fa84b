import type { NextFunction, Request, Response } from 'express';

const HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Cross-Origin-Resource-Policy', 'cross-origin'],
];

/** Headers every answer carries: an API serves no pages, so nothing may be framed, sniffed or scripted. */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  // Node's own setHeader: Express's res.set() would look for a charset in each of these on every request.
  for (const [name, value] of HEADERS) res.setHeader(name, value);
  next();
}
