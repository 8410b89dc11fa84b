import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Request, Response } from 'express';
import { ApiError } from '../errors/ApiError.js';

/** Where the build puts the HTML reference (scripts/build.mjs): the package's dist/docs/, from src/ or dist/ alike. */
const DOCS_DIR = fileURLToPath(new URL('../../dist/docs/', import.meta.url));

/** The reference's page runs Redoc from this server: its own script, inline state and styles, nothing from elsewhere. */
const DOCS_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

/**
 * `GET /docs`: the API reference for people — Redocly's rendering of the OpenAPI document, readable
 * before its script runs — and `GET /docs/redoc.standalone.js`, that script. A server installed
 * without the built reference answers 404 naming where the document is.
 */
export function docsRoute() {
  let page: Buffer | undefined, script: Buffer | undefined;
  const load = () => {
    if (page === undefined && existsSync(`${DOCS_DIR}index.html`)) {
      page = readFileSync(`${DOCS_DIR}index.html`);
      script = readFileSync(`${DOCS_DIR}redoc.standalone.js`);
    }
  };
  const missing = () =>
    new ApiError(
      404,
      'not_found',
      'the HTML API reference was not built with this server (scripts/build.mjs ' +
        'builds it); the OpenAPI document is at /api/vision/v1/openapi.json',
      [{ field: 'path', message: 'not built' }],
    );
  return {
    page(_req: Request, res: Response): void {
      load();
      if (!page) throw missing();
      res.setHeader('Content-Security-Policy', DOCS_CSP);
      res.type('html').set('Cache-Control', 'public, max-age=300').send(page);
    },
    script(_req: Request, res: Response): void {
      load();
      if (!script) throw missing();
      res.type('text/javascript').set('Cache-Control', 'public, max-age=86400').send(script);
    },
  };
}
