import { elementRoute } from '../routes/elementRoute.js';
import { APP_SITE_ASSOCIATION_PATH, appSiteAssociationRoute } from '../routes/appSiteAssociationRoute.js';
import { CONVERTER_VERSION } from '@arsession/convert';
import type { ServerConfig } from '../config/ServerConfig.js';
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import { ApiError } from '../errors/ApiError.js';
import { problemFromError } from '../errors/problemFromError.js';
import { openapiDocument } from '../openapi/openapiDocument.js';
import { byPlane } from '../placement/byPlane.js';
import { byRefimage } from '../placement/byRefimage.js';
import { byScan } from '../placement/byScan.js';
import { byVirtualAnchor } from '../placement/byVirtualAnchor.js';
import type { PlacementMethod } from '../placement/PlacementMethod.js';
import { claimRoute } from '../routes/claimRoute.js';
import { detailRoute } from '../routes/detailRoute.js';
import { filesRoute } from '../routes/filesRoute.js';
import { healthz, readyz } from '../routes/healthRoutes.js';
import { PAGE_ASSETS, pageAssetsRoute, sessionPageRoute } from '../routes/sessionPageRoute.js';
import { deleteModelRoute, modelFileRoute, modelRoute, modelsRoute } from '../routes/modelsRoute.js';
import { endSessionRoute } from '../routes/endSessionRoute.js';
import { docsRoute } from '../routes/docsRoute.js';
import { createSession } from '../session/createSession.js';
import { METRICS_PATH, metricsRoute } from '../metrics/metricsRoute.js';
import { backingServiceOf, routeOf } from '../metrics/requestLabels.js';
import { securityHeaders } from './securityHeaders.js';
import { corsHeaders } from './corsHeaders.js';
import type { ServerContext } from './ServerContext.js';

/** A session endpoint: its path and the handler that runs its placement method. */
interface SessionEndpoint {
  path: string;
  handle(ctx: ServerContext, req: Request, res: Response): Promise<void>;
}

const endpoint = <I>(method: PlacementMethod<I>): SessionEndpoint => ({
  path: method.path,
  handle: (ctx, req, res) => createSession(ctx, method, req, res),
});

/** The seven session endpoints, in the spec's order. */
export const SESSION_ENDPOINTS: readonly SessionEndpoint[] = [
  endpoint(byPlane),
  endpoint(byScan),
  ...byVirtualAnchor.map(endpoint),
  endpoint(byRefimage),
];

const API = '/api/vision/v1';
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Text fields (at most 100 of 64 kB) and part headers of a session form, on top of its files. */
const MAX_FORM_OVERHEAD_BYTES = 8 * 1024 * 1024;

/** Largest unread body still read (and discarded) after a refusal, so the client hears the answer. */
const DRAIN_REFUSED_BODY_BYTES = 32 * 1024 * 1024;

/** What a person finds at the root: the reference, the document, health. */
const ROOT_PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><title>arsession</title>
<h1>arsession</h1><p>Building models (IFC, GLB, USDZ) into AR sessions.</p>
<ul><li><a href="/docs">API reference</a></li>
<li><a href="/api/vision/v1/openapi.json">OpenAPI document</a></li>
<li><a href="/healthz">health</a></li></ul></html>`;

/**
 * The HTTP application: thin wiring of the routes to `geometry`, `convert` and the store. Express
 * routing is not strict, so every path answers with or without its trailing slash.
 */
export function createApp(ctx: ServerContext): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Who the client is (req.ip: per-address limits) and what it called (req.protocol, req.host:
  // the links in every answer) come from X-Forwarded-* only when a trusted proxy wrote them.
  app.set('trust proxy', ctx.config.trustProxy);
  app.use((req, res, next) => {
    const given = req.get('X-Request-Id');
    const id = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    // Which converter answered: a client can tell a deployment's version from any answer.
    res.setHeader('X-Arsession-Version', CONVERTER_VERSION);
    res.locals.requestId = id;
    res.locals.log = ctx.log.child({ req_id: id });
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      (res.locals.log as ServerContext['log']).info(
        { method: req.method, url: req.originalUrl, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 },
        'request',
      );
    });
    // On close, not finish: a request its client gave up on counts too, as `aborted`.
    res.on('close', () => {
      ctx.metrics.httpRequest(
        routeOf(req),
        req.method,
        res.writableFinished ? res.statusCode : 'aborted',
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    });
    next();
  });
  app.use(securityHeaders);
  app.use(corsHeaders(ctx.config.corsOrigins));

  // A body declared larger than any acceptable request is refused before a byte of it is read and
  // before it takes an admission slot: every file at its limit (the models and a reference image),
  // plus room for the text fields and part headers.
  const maxRequestBytes = (ctx.config.maxFiles + 1) * ctx.config.maxFileBytes + MAX_FORM_OVERHEAD_BYTES;
  const refuseOversizedBody = (req: Request, _res: Response, next: NextFunction) => {
    const declared = Number(req.get('Content-Length'));
    if (declared > maxRequestBytes) {
      throw new ApiError(
        413,
        'request_too_large',
        `the request declares ${declared} bytes; at most ${maxRequestBytes} are accepted ` +
          `(${ctx.config.maxFiles + 1} files of ${ctx.config.maxFileBytes} bytes and the form fields)`,
        [{ field: 'Content-Length', message: `over ${maxRequestBytes} bytes` }],
      );
    }
    next();
  };
  // Asked with another method, a session endpoint says it takes POST: a GET would otherwise reach
  // the detail route and answer as if `by_plane` were a session id.
  const postOnly = [...SESSION_ENDPOINTS.map((e) => `${API}/session/${e.path}`), `${API}/session/claim`];
  for (const path of postOnly) app.all(path, (req, _res, next) => next(req.method === 'POST' ? undefined : methodNotAllowed(req)));
  for (const e of SESSION_ENDPOINTS) app.post(`${API}/session/${e.path}`, refuseOversizedBody, (req, res) => e.handle(ctx, req, res));
  const claimBody = [
    express.json({ limit: '4kb' }),
    express.urlencoded({ limit: '4kb', extended: false }),
    multer({ limits: { fields: 4, fieldSize: 256, files: 0, parts: 4 } }).none(),
  ];
  app.post(`${API}/session/claim`, ...claimBody, claimRoute(ctx));
  app.get(`${API}/session/:id`, detailRoute(ctx));
  app.delete(`${API}/session/:id`, endSessionRoute(ctx));
  app.get(`${API}/session/:id/files/:name`, filesRoute(ctx));
  app.get(`${API}/session/:id/elements/:globalId`, elementRoute(ctx));
  app.get(`${API}/models`, modelsRoute(ctx));
  app.get(`${API}/models/:id`, modelRoute(ctx));
  app.get(`${API}/models/:id/file`, modelFileRoute(ctx));
  app.delete(`${API}/models/:id`, deleteModelRoute(ctx));
  app.get(
    `${API}/openapi.json`,
    (_req, res) => void res.json(openapiDocument({ serverUrl: ctx.config.publicUrl, metrics: publicMetrics(ctx.config) })),
  );
  app.get(`${PAGE_ASSETS}/:name`, pageAssetsRoute());
  app.get('/s/:id', sessionPageRoute(ctx));
  const docs = docsRoute();
  app.get('/docs', docs.page);
  app.get('/docs/redoc.standalone.js', docs.script);
  // The root is where a person lands first: where to read on.
  app.get('/', (_req, res) => void res.type('html').send(ROOT_PAGE));
  app.get('/healthz', healthz);
  app.get(APP_SITE_ASSOCIATION_PATH, appSiteAssociationRoute(ctx));
  app.get('/readyz', readyz(ctx));
  // Prometheus' scrape: on its own port when there is one; on the public port only behind its token.
  if (publicMetrics(ctx.config)) app.get(METRICS_PATH, metricsRoute(ctx.metrics, ctx.config.metricsToken));

  app.use((req: Request) => {
    const near = nearestEndpoint(req.path, postOnly);
    const hint = near ? `; did you mean ${near}/?` : '';
    throw new ApiError(404, 'not_found', `no endpoint ${req.method} ${req.path}${hint}`, [
      { field: 'path', message: `unknown endpoint${hint}` },
    ]);
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { problem, headers } = problemFromError(err);
    const service = backingServiceOf(problem.code);
    if (service) ctx.metrics.backingServiceError(service, problem.code);
    const log = res.locals.log as ServerContext['log'];
    if (problem.status >= 500 && problem.status !== 503) log.error({ err }, 'request failed');
    else log.info({ code: problem.code, status: problem.status }, problem.detail);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // A refusal before the body was read. A small declared body is read and discarded (Node does
    // that after the answer): a client still sending when the socket closed would see a reset,
    // not our answer. A large or undeclared one is not worth reading: answer and close.
    if (!req.complete && !(Number(req.headers['content-length']) <= DRAIN_REFUSED_BODY_BYTES)) res.set('Connection', 'close');
    res
      .status(problem.status)
      .set(headers)
      .type('application/problem+json')
      .send(JSON.stringify({ ...problem, request_id: res.locals.requestId }));
  });
  return app;
}

/** Whether the public port serves `/metrics`: with no metrics port of its own, and a token to ask for. */
export function publicMetrics(config: Pick<ServerConfig, 'metricsPort' | 'metricsToken'>): boolean {
  return config.metricsPort === undefined && config.metricsToken !== undefined;
}

/** 405 for a method a POST-only endpoint does not take, with the `Allow` header. */
function methodNotAllowed(req: Request): ApiError {
  return new ApiError(
    405,
    'method_not_allowed',
    `${req.path} takes POST, not ${req.method}`,
    [{ field: 'method', message: 'must be POST' }],
    { Allow: 'POST' },
  );
}

/**
 * The endpoint a mistyped session path most likely meant: the same letters once case, `_` against
 * `-` and the trailing slash are set aside (`rectangle_short_side` for `rectangle-short-side`).
 */
function nearestEndpoint(path: string, endpoints: readonly string[]): string | undefined {
  const plain = (p: string) => p.toLowerCase().replace(/_/g, '-').replace(/\/+$/, '');
  return endpoints.find((e) => plain(e) === plain(path));
}
