import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';
import { deeplinkOf } from '../session/createSession.js';
import { liveSession } from './sessionLookup.js';

/** Base of absolute URLs: the configured public URL, else what the client called. */
export function baseUrl(ctx: ServerContext, req: Request): string {
  return ctx.config.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** `GET /api/vision/v1/session/{id}/`: the detail record (contract.md). */
export function detailRoute(ctx: ServerContext) {
  return (req: Request, res: Response): void => {
    const session = liveSession(ctx.db, String(req.params.id));
    const files = `${baseUrl(ctx, req)}/api/vision/v1/session/${session.id}/files/`;
    const { image_file: imageFile, ...placement } = session.placement;
    res.set('Cache-Control', 'no-store').json({
      session_id: session.id,
      deeplink: deeplinkOf(ctx.config.deeplinkScheme, session.id),
      created_at: new Date(session.createdAt).toISOString(),
      expires_at: new Date(session.expiresAt).toISOString(),
      placement: { ...placement, ...(typeof imageFile === 'string' && { image_url: files + imageFile }) },
      model_frame: session.modelFrame,
      model_assets: session.assets.map((a) => {
        const { usdz_file: usdz, reality_file: reality, preferred_format: preferred, ...info } = a.info;
        return {
          order: a.order,
          source_name: a.sourceName,
          preferred_format: preferred,
          reality_url: typeof reality === 'string' ? files + reality : null,
          usdz_url: files + String(usdz),
          ...info,
        };
      }),
    });
  };
}
