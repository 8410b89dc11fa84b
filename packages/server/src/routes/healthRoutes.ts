import { accessSync, constants } from 'node:fs';
import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';

/** `GET /healthz`: the process answers. */
export function healthz(_req: Request, res: Response): void {
  res.set('Cache-Control', 'no-store').json({ status: 'ok' });
}

/** `GET /readyz`: the session store and the object store answer, the data directory is writable, and the server is not shutting down. */
export function readyz(ctx: ServerContext) {
  return async (_req: Request, res: Response): Promise<void> => {
    const checks: Record<string, string> = {};
    try {
      await ctx.sessions.ping();
      checks.database = 'ok';
    } catch (err) {
      checks.database = (err as Error).message;
    }
    try {
      await ctx.jobs.ping();
      checks.jobs = 'ok';
    } catch (err) {
      checks.jobs = (err as Error).message;
    }
    try {
      await ctx.objects.ping();
      checks.objects = 'ok';
    } catch (err) {
      checks.objects = (err as Error).message;
    }
    try {
      accessSync(ctx.paths.uploads, constants.W_OK);
      checks.data_dir = 'ok';
    } catch (err) {
      checks.data_dir = (err as Error).message;
    }
    checks.accepting = ctx.draining ? 'shutting down' : 'ok';
    const ready = Object.values(checks).every((v) => v === 'ok');
    res.status(ready ? 200 : 503).set('Cache-Control', 'no-store').json({
      status: ready ? 'ready' : 'not_ready', checks, in_flight: ctx.admission.inFlight, capacity: ctx.config.workers + ctx.config.queue,
    });
  };
}
