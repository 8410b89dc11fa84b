import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { NextFunction, Request, Response } from 'express';
import QRCode from 'qrcode';
import type { ServerContext } from '../app/ServerContext.js';
import { ApiError } from '../errors/ApiError.js';
import { renderGonePage, renderSessionPage } from '../page/renderSessionPage.js';
import { sessionDetail } from './detailRoute.js';
import { liveSession } from './sessionLookup.js';

/** Where the page's own assets are served. */
export const PAGE_ASSETS = '/s/assets';

/**
 * The page's security policy: its scripts are ours (no inline script, no other origin; WebAssembly,
 * which model-viewer compiles, but no eval); styles ours and inline (model-viewer styles its own
 * elements); the 3D preview loads models from this server and decodes textures in blobs; nothing is framed.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' data: blob:",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * `GET /s/{id}`: the session's page for people (HTML; the session id is the capability, as for the
 * detail record). An expired session's page says so (410), an unknown one says there is none (404).
 */
export function sessionPageRoute(ctx: ServerContext) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    res.setHeader('Content-Security-Policy', PAGE_POLICY);
    res.set('Cache-Control', 'no-store');
    let session: Awaited<ReturnType<typeof liveSession>>;
    try {
      session = await liveSession(ctx.sessions, String(req.params.id));
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 410)) return next(err);
      const [heading, message] =
        err.status === 410
          ? [
              'This AR session has expired',
              `${err.message[0]!.toUpperCase()}${err.message.slice(1)}. Ask for a new session, or create one again from the model.`,
            ]
          : ['There is no such AR session', 'The link may be mistyped, or the session was removed long after it expired.'];
      res
        .status(err.status)
        .type('html')
        .send(renderGonePage(heading, message, PAGE_ASSETS));
      return;
    }
    const detail = sessionDetail(ctx, req, session);
    const qrSvg = await QRCode.toString(detail.deeplink, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    res.type('html').send(
      renderSessionPage({
        detail,
        onetimeCode: session.onetimeCode,
        codeClaimed: session.codeClaimed,
        codeExpired: session.createdAt + Math.min(ctx.config.codeTtlSeconds, ctx.config.sessionTtlSeconds) * 1000 <= Date.now(),
        qrSvg,
        assets: PAGE_ASSETS,
        now: Date.now(),
      }),
    );
  };
}

const require = createRequire(import.meta.url);
/**
 * The page's assets by name: model-viewer from its package (served by us: the page makes no request elsewhere), the rest from `assets/`.
 */
const ASSETS: Record<string, { path: string; type: string }> = {
  'model-viewer.min.js': { path: require.resolve('@google/model-viewer/dist/model-viewer.min.js'), type: 'text/javascript' },
  'session-page.js': { path: fileURLToPath(new URL('../../assets/session-page.js', import.meta.url)), type: 'text/javascript' },
  'element-picking.js': { path: fileURLToPath(new URL('../../assets/element-picking.js', import.meta.url)), type: 'text/javascript' },
  'session-page.css': { path: fileURLToPath(new URL('../../assets/session-page.css', import.meta.url)), type: 'text/css' },
  'ar-badge.svg': { path: fileURLToPath(new URL('../../assets/ar-badge.svg', import.meta.url)), type: 'image/svg+xml' },
};

/** The names `/s/assets/{name}` serves (the OpenAPI document lists them). */
export const PAGE_ASSET_NAMES = Object.keys(ASSETS);

/** `GET /s/assets/{name}`: the session page's scripts, style sheet and icon, cached for a day. */
export function pageAssetsRoute() {
  return (req: Request, res: Response, next: NextFunction): void => {
    // An own property only: `constructor` or `__proto__` is a name like any other, not found.
    const name = String(req.params.name);
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw new ApiError(404, 'not_found', `no page asset ${name}`, [{ field: 'name', message: 'unknown asset' }]);
    // The paths are ours (a fixed list); pnpm keeps packages under .pnpm/, which sendFile would hide.
    res.sendFile(
      asset.path,
      { dotfiles: 'allow', headers: { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=86400' } },
      (err?: Error) => {
        if (err && !res.headersSent) next(err);
      },
    );
  };
}
