import { accessSync, constants } from 'node:fs';
import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';

/** `GET /healthz`: the process answers. */
export function healthz(_req: Request, res: Response): void {
  res.set('Cache-Control', 'no-store').json({ status: 'ok' });
}

/** `GET /readyz`: the session store, the queue and the object store answer, the data directory is writable, and the server is not shutting down. */
export function readyz(ctx: ServerContext) {
  return async (_req: Request, res: Response): Promise<void> => {
    // Each dependency answers 'ok' or the reason it does not; all are asked, one after the other.
    const checks: Record<string, string> = {};
    const check = async (name: string, ask: () => unknown) => {
      try {
        await ask();
        checks[name] = 'ok';
      } catch (err) {
        checks[name] = (err as Error).message;
      }
    };
    await check('database', () => ctx.sessions.ping());
    await check('jobs', () => ctx.jobs.ping());
    await check('objects', () => ctx.objects.ping());
    await check('data_dir', () => accessSync(ctx.paths.uploads, constants.W_OK));
    checks.accepting = ctx.draining ? 'shutting down' : 'ok';
    const ready = Object.values(checks).every((v) => v === 'ok');
    res.status(ready ? 200 : 503).set('Cache-Control', 'no-store').json({
      status: ready ? 'ready' : 'not_ready', checks, in_flight: ctx.admission.inFlight, capacity: ctx.config.workers + ctx.config.queue,
    });
  };
}
