import { accessSync, constants } from 'node:fs';
import { CONVERTER_VERSION } from '@arsession/convert';
import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';
import type { Health, Readiness } from '../records/ServiceStatus.js';

/** `GET /healthz`: the process answers, and says which version it runs (a rolling deploy shows in it). */
export function healthz(_req: Request, res: Response): void {
  const health: Health = { status: 'ok', version: CONVERTER_VERSION };
  res.set('Cache-Control', 'no-store').json(health);
}

/**
 * `GET /readyz`: the session store, the queue and the object store answer, the data directory is writable, and the server is not shutting
 * down.
 */
export function readyz(ctx: ServerContext) {
  return async (_req: Request, res: Response): Promise<void> => {
    // Each dependency answers 'ok' or which way it failed; all are asked, one after the other. The
    // error itself (hosts, paths, database messages) goes to the log only: anyone can ask /readyz.
    const checks: Record<string, string> = {};
    const check = async (name: string, failed: string, ask: () => unknown) => {
      try {
        await ask();
        checks[name] = 'ok';
      } catch (err) {
        checks[name] = failed;
        ctx.log.warn({ check: name, err }, `readiness: ${name} ${failed}`);
      }
    };
    await check('database', 'cannot be reached', () => ctx.sessions.ping());
    await check('jobs', 'cannot be reached', () => ctx.jobs.ping());
    await check('objects', 'cannot be reached', () => ctx.objects.ping());
    await check('data_dir', 'is not writable', () => accessSync(ctx.paths.uploads, constants.W_OK));
    checks.accepting = ctx.draining ? 'shutting down' : 'ok';
    const ready = Object.values(checks).every((v) => v === 'ok');
    const readiness: Readiness = {
      status: ready ? 'ready' : 'not_ready',
      checks,
      in_flight: ctx.admission.inFlight,
      capacity: ctx.config.workers + ctx.config.queue,
    };
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json(readiness);
  };
}
