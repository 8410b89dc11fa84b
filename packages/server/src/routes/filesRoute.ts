import type { NextFunction, Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';
import { ApiError } from '../errors/ApiError.js';
import { liveSession } from './sessionLookup.js';

/**
 * `GET /api/vision/v1/session/{id}/files/{name}`: a delivered file with its exact Content-Type,
 * a strong ETag (its SHA-256), byte ranges and conditional requests. Only names the session
 * lists are served, so nothing else in the data directory is reachable; a file it is due but has
 * not been asked for before (an AR Quick Look package, the page's preview) is made first.
 */
export function filesRoute(ctx: ServerContext) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const session = await liveSession(ctx.sessions, String(req.params.id));
    const file = await ctx.derivedFiles.fileOf(session, String(req.params.name));
    if (!file || session.filesDeleted)
      throw new ApiError(404, 'file_not_found', 'this session has no such file', [{ field: 'name', message: 'unknown file' }]);
    res.set({
      'Content-Type': file.contentType,
      ETag: `"${file.sha256}"`,
      'Content-Disposition': file.downloadName,
      'Cache-Control': `private, max-age=${Math.max(0, Math.floor((session.expiresAt - Date.now()) / 1000))}, immutable`,
    });
    const maxAgeSeconds = Math.max(0, Math.floor((session.expiresAt - Date.now()) / 1000));
    await ctx.objects.send(req, res, session.id, file, { maxAgeSeconds }).catch((err: unknown) => {
      if (!res.headersSent) next(err);
      else res.destroy();
    });
  };
}
