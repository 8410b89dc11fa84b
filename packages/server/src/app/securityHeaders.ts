import type { NextFunction, Request, Response } from 'express';

/** Headers every answer carries: an API serves no pages, so nothing may be framed, sniffed or scripted. */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.set({
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
  next();
}
