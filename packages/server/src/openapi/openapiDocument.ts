import { REQUEST_EXAMPLES } from './requestExamples.js';
import { CONFIG_ENV } from '../config/ServerConfig.js';
import { PAGE_ASSET_NAMES } from '../routes/sessionPageRoute.js';
import { ref, SCHEMAS, type Schema } from './components.js';
import { describeFields } from './fieldDescriptions.js';
import { formSchema } from '../form/FormField.js';
import { byPlane } from '../placement/byPlane.js';
import { byRefimage } from '../placement/byRefimage.js';
import { byScan } from '../placement/byScan.js';
import { byVirtualAnchor } from '../placement/byVirtualAnchor.js';
import type { PlacementMethod } from '../placement/PlacementMethod.js';
import { SESSION_FORM } from '../session/sessionForm.js';

/** The virtual-anchor endpoint at `path`. */
function anchorMethod(path: string): PlacementMethod<unknown> {
  const method = byVirtualAnchor.find((m) => m.path === path);
  if (!method) throw new Error(`no virtual-anchor endpoint at ${path}`);
  return method as PlacementMethod<unknown>;
}

/** What a session's files are served as. */
const FILE_TYPES: Schema = Object.fromEntries(
  ['model/vnd.usdz+zip', 'model/gltf-binary', 'model/vnd.reality', 'application/zip', 'application/gzip', 'image/png', 'image/jpeg'].map(
    (type) => [type, { schema: { type: 'string', contentMediaType: type } }],
  ),
);
const HTML: Schema = { 'text/html': { schema: { type: 'string' } } };

// No per-field examples: a field's example alone makes no request (a gaze straight up, a direction
// along its own plane's normal); every endpoint has whole requests instead (requestExamples.ts).
/** A session endpoint's request body: the models and conversion block, then its placement's fields (each declared once). */
function multipart(method: PlacementMethod<unknown>): Schema {
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: formSchema([...SESSION_FORM, ...method.form]),
        examples: REQUEST_EXAMPLES[method.path],
      },
    },
  };
}

const problem = (description: string): Schema => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
const retryAfter = { 'Retry-After': { description: 'seconds to wait before trying again', schema: { type: 'integer' } } };
/** What a dependency out of reach, or a full server, answers on any path that needs it. */
const unavailable = {
  ...problem(
    'saturated, or a dependency out of reach: saturated, store_unavailable, object_store_unavailable, queue_unavailable, conversion_failed',
  ),
  headers: retryAfter,
};
/** What any request whose headers or body arrive too slowly gets, whichever path it was for. */
const timedOut = { description: 'the request (or its headers) did not arrive within its time limit; the connection is closed' };
const sessionErrors: Schema = {
  400: problem(
    'the form breaks a rule: missing_field, duplicate_field, mutually_exclusive, malformed_json, ' +
      'wrong_type, out_of_range (a number beyond ARSESSION_MAX_COORDINATE_M, 1e8 m by default), ' +
      'file_sent_as_text (a file field sent as text: curl -F without @), unknown_field, unknown_value, ' +
      'empty_field, unexpected_file, not_multipart, invalid_multipart, conversion_custom_unsupported',
  ),
  401: problem('X-API-Key missing where required (model_id always needs it), or not valid: api_key_missing, api_key_invalid'),
  404: problem("model_id names no saved model of the key's account (model_not_found)"),
  408: problem(
    'the body came slower than ARSESSION_MIN_BODY_KBPS over 10 s (body_too_slow), or the request ' +
      'did not arrive within its time limit (then without a body); the connection is closed',
  ),
  413: problem(
    'a file, the request, or the number of files, parts or fields over its limit: ' +
      'file_too_large, request_too_large, too_many_files, too_many_parts, too_many_fields, ' +
      "field_too_large; or the models would pass the bytes the key's account may " +
      'keep (saved_models_bytes_quota, ARSESSION_SAVED_MODELS_PER_ACCOUNT_MB)',
  ),
  415: problem('a model that is not IFC, GLB or USDZ, or a reference image that is not PNG or JPEG: unsupported_format, unsupported_image'),
  422: problem(
    'readable but unusable: invalid_opening, invalid_anchor, invalid_alignment, degenerate_input, ' +
      'door_not_found (with reason), model_unreadable, mesh_node_limit, model_too_large (the ' +
      'model needs more memory than one conversion may use, ARSESSION_CONVERSION_MEMORY_MB: refused ' +
      'while its geometry is read, or when its worker process runs out), usdz_package_invalid',
  ),
  429: {
    ...problem(
      'over an allowance: this client (its address, or its IPv6 /64) is already sending as many uploads as it ' +
        'may at once (too_many_uploads, ARSESSION_UPLOADS_PER_CLIENT), or has made as many sessions as it may this ' +
        "hour (too_many_sessions: 20 without a key, 600 per key), or the key's account keeps as many saved models " +
        'as it may (saved_models_count_quota, ARSESSION_SAVED_MODELS_PER_ACCOUNT: delete some; no Retry-After)',
    ),
    headers: retryAfter,
  },
  503: unavailable,
};

function sessionEndpoint(operationId: string, summary: string, description: string, body: Schema, keyOptional = false): Schema {
  return {
    post: {
      operationId,
      summary,
      description,
      requestBody: body,
      tags: ['sessions'],
      security: keyOptional ? [{}, { ApiKey: [] }] : [{ ApiKey: [] }],
      responses: {
        201: {
          description: 'created once the models were read, placed and converted',
          headers: { Location: { description: 'the detail record', schema: { type: 'string' } } },
          content: { 'application/json': { schema: ref('SessionResponse') } },
        },
        ...sessionErrors,
      },
    },
  };
}

/** Options for {@link openapiDocument}. */
export interface OpenapiDocumentOptions {
  /** The server's public base URL (ARSESSION_PUBLIC_URL); without it, the host that served the document. */
  serverUrl?: string;
  /** Whether `/metrics` is on the public port (no `ARSESSION_METRICS_PORT`); default true, as embedded. */
  metrics?: boolean;
}

/**
 * The OpenAPI 3.1 description of the whole HTTP interface, served at
 * `GET /api/vision/v1/openapi.json`, checked against the OpenAPI schema and Redocly's
 * recommended rules in the tests, and the source of `@arsession/client`'s types.
 *
 * @example
 * ```ts
 * const doc = openapiDocument({ serverUrl: 'https://ar.example.com' });
 * Object.keys(doc.paths); // ['/api/vision/v1/session/by_plane/', …]
 * ```
 */
export function openapiDocument(options: OpenapiDocumentOptions = {}): Schema {
  const sessionPath = '/api/vision/v1/session';
  const metrics = options.metrics ?? true;
  const sessionId = {
    name: 'session_id',
    in: 'path',
    required: true,
    description: 'the id at the end of the deep link',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'arsession',
      version: '1.0.0',
      description:
        `Creates AR sessions from building models (IFC, GLB, USDZ). Every path also answers with a trailing slash. ` +
        `Coordinates are metres in the submitted model's frame; every pose the server reports is in the delivered USDZ's ` +
        `frame (right-handed, Y-up, metres): a submitted point p lands at to_y_up(p) − model_frame.offset. Errors ` +
        `are application/problem+json with a field list. Server settings: ${Object.values(CONFIG_ENV).join(', ')}.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // A relative URL resolves against where the document was fetched, which is right for any host.
    servers: [{ url: options.serverUrl ?? '/', description: options.serverUrl ? 'this server' : 'the host that served this document' }],
    paths: {
      [`${sessionPath}/by_plane/`]: sessionEndpoint(
        'createSessionByPlane',
        'Place the model on a plane',
        'The placement is the footprint anchor (bottom centre of the bounds). ' +
          'X-API-Key is optional; with a valid key the models are saved to its account.',
        multipart(byPlane),
        true,
      ),
      [`${sessionPath}/by_scan/`]: sessionEndpoint(
        'createSessionByScan',
        'Place the model by a door opening',
        'Mode 1: point_1 + point_2, the server detects the door. Mode 2: corners + wall_normal. `arsession ' +
          'inspect --json FILE` prints both for every door of an IFC model, from both sides of its wall.',
        multipart(byScan),
      ),
      [`${sessionPath}/by_virtual_anchor/circle-directional/`]: sessionEndpoint(
        'createSessionByCircleAnchor',
        'Anchor: circle with direction',
        'Frame: origin at center, y along plane_normal, x along direction.',
        multipart(anchorMethod('by_virtual_anchor/circle-directional')),
      ),
      [`${sessionPath}/by_virtual_anchor/rectangle-short-side/`]: sessionEndpoint(
        'createSessionByRectangleAnchor',
        'Anchor: rectangle by its short side',
        'Frame: origin at center, y along plane_normal, x along short_side_direction.',
        multipart(anchorMethod('by_virtual_anchor/rectangle-short-side')),
      ),
      [`${sessionPath}/by_virtual_anchor/corner-directional/`]: sessionEndpoint(
        'createSessionByCornerAnchor',
        'Anchor: corner',
        'Frame: origin at the corner, y along plane_normal, x bisecting the two edges.',
        multipart(anchorMethod('by_virtual_anchor/corner-directional')),
      ),
      [`${sessionPath}/by_virtual_anchor/segment-directional/`]: sessionEndpoint(
        'createSessionBySegmentAnchor',
        'Anchor: segment with direction',
        'Frame: origin at the midpoint, y along plane_normal, x from point 1 to point 2.',
        multipart(anchorMethod('by_virtual_anchor/segment-directional')),
      ),
      [`${sessionPath}/by_refimage/`]: sessionEndpoint(
        'createSessionByRefimage',
        'Place by a reference image',
        'Frame of the printed image in ARKit image-anchor convention: y along normal, x to the image right, z to its bottom.',
        multipart(byRefimage),
      ),
      [`${sessionPath}/claim/`]: {
        post: {
          operationId: 'claimSession',
          summary: 'Trade a one-time code for its session (once)',
          tags: ['sessions'],
          security: [],
          description:
            'A code is claimed once. The client that claimed it (its address, or its IPv6 /64) gets the same answer again ' +
            'for 5 minutes, so a claim whose answer was lost can be retried; anyone else gets 404.',
          requestBody: {
            required: true,
            content: Object.fromEntries(
              ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'].map((t) => [
                t,
                {
                  schema: {
                    type: 'object',
                    required: ['onetime_code'],
                    properties: {
                      onetime_code: {
                        type: 'string',
                        pattern: '^ *[0-9]([ -]*[0-9]){11} *$',
                        description: 'the twelve digits, as given or in groups with spaces or dashes (0421 9937 1180)',
                      },
                    },
                  },
                },
              ]),
            ),
          },
          responses: {
            200: { description: 'the session', content: { 'application/json': { schema: ref('ClaimResponse') } } },
            400: problem('no or malformed onetime_code (missing_field, wrong_type), or a body that cannot be read (malformed_body)'),
            404: problem(
              'unknown, used (by another client, or more than 5 minutes ago) or expired code, ' +
                'or one past its own lifetime (code_not_found)',
            ),
            413: problem('a body over 4 kB (body_too_large)'),
            429: {
              ...problem(
                'too many attempts from this client (too_many_claims): 10 a minute, or 20 failed an hour, or ' +
                  '50 failed a day (its address, or its IPv6 /64); never for a client that has not itself failed',
              ),
              headers: retryAfter,
            },
            503: unavailable,
          },
        },
      },
      [`${sessionPath}/{session_id}/`]: {
        get: {
          operationId: 'getSession',
          summary: 'The session detail record',
          tags: ['sessions'],
          security: [],
          description: 'The session id is the capability: no key is needed.',
          parameters: [sessionId],
          responses: {
            200: { description: 'detail', content: { 'application/json': { schema: ref('SessionDetail') } } },
            404: problem('unknown session (session_not_found)'),
            405: problem(
              'the path is a session endpoint (by_plane, by_scan, …, claim), which takes POST: method_not_allowed, with Allow: POST',
            ),
            410: problem('expired session (session_expired)'),
            503: unavailable,
          },
        },
        delete: {
          operationId: 'endSession',
          summary: 'End a session early (the key that made it)',
          tags: ['sessions'],
          security: [{ ApiKey: [] }],
          description:
            'Its one-time code can no longer be claimed, its files are deleted, and its id ' +
            'answers 410 from then on. Only a key of the account that made the session can end it.',
          parameters: [sessionId],
          responses: {
            204: { description: 'ended' },
            401: problem('missing or invalid key (api_key_missing, api_key_invalid)'),
            403: problem('made without a key, or by another account (not_your_session)'),
            404: problem('unknown session (session_not_found)'),
            410: problem('expired or ended already (session_expired)'),
            503: unavailable,
          },
        },
      },
      [`${sessionPath}/{session_id}/files/{name}`]: {
        get: {
          operationId: 'getSessionFile',
          summary:
            'A delivered file (USDZ, GLB, Reality, parts zip, element records, reference image): ETag, byte ranges, conditional requests',
          tags: ['sessions'],
          security: [],
          parameters: [
            sessionId,
            { name: 'name', in: 'path', required: true, description: 'a file the detail record links to', schema: { type: 'string' } },
            { name: 'Range', in: 'header', description: 'one byte range', schema: { type: 'string' } },
          ],
          responses: {
            200: {
              description: 'the file',
              headers: { ETag: { description: 'its SHA-256, quoted', schema: { type: 'string' } } },
              content: FILE_TYPES,
            },
            206: { description: 'a byte range', content: FILE_TYPES },
            304: { description: 'not modified (If-None-Match matched)' },
            307: {
              description: 'with ARSESSION_S3_REDIRECT: the file at a presigned URL of the object store',
              headers: { Location: { description: 'the presigned URL', schema: { type: 'string' } } },
            },
            404: problem('unknown file (file_not_found) or session (session_not_found)'),
            410: problem('expired session (session_expired)'),
            416: { description: 'range not satisfiable' },
            503: unavailable,
          },
        },
      },
      [`${sessionPath}/{session_id}/elements/{global_id}`]: {
        get: {
          operationId: 'getElementRecord',
          summary: "One element's record as the model states it: what an app shows when the element is tapped",
          description:
            "The delivered files carry each element's id on its triangles (an IFC GlobalId, a GLB node pointer, a USD prim " +
            'path); this answers what it is: class, name, type, storey, materials, property sets and quantities, and the ' +
            "order of the model it belongs to. Every element's record is also one file, each asset's element_records.url, " +
            'for an app that works offline.',
          tags: ['sessions'],
          security: [],
          parameters: [
            sessionId,
            {
              name: 'global_id',
              in: 'path',
              required: true,
              description: "the element's id, URL-encoded: an IFC GlobalId, a GLB node pointer (/nodes/12), a USD prim path",
              schema: { type: 'string', maxLength: 1024 },
            },
            {
              name: 'order',
              in: 'query',
              required: false,
              description:
                'the model (model_assets order) to look in: a GLB node pointer or prim path is unique only within ' +
                'one; by default the first that has it',
              schema: { type: 'integer', minimum: 0 },
            },
          ],
          responses: {
            200: { description: 'the record', content: { 'application/json': { schema: ref('ElementRecord') } } },
            400: problem('order names no model of the session (out_of_range)'),
            404: problem('no element of the session has this GlobalId (element_not_found), or no such session (session_not_found)'),
            410: problem('expired session (session_expired)'),
            503: unavailable,
          },
        },
      },
      '/api/vision/v1/models/': {
        get: {
          operationId: 'listSavedModels',
          summary: "The key's saved models, a page at a time",
          tags: ['accounts'],
          security: [{ ApiKey: [] }],
          description:
            'Every model sent with a key is saved to its account, once per content, up to ' +
            'ARSESSION_SAVED_MODELS_PER_ACCOUNT models and ARSESSION_SAVED_MODELS_PER_ACCOUNT_MB; ' +
            'past either, session requests that would save more are refused ' +
            '(saved_models_count_quota, saved_models_bytes_quota) until some are deleted.',
          parameters: [
            {
              name: 'limit',
              in: 'query',
              description: 'models on a page',
              schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
            },
            { name: 'cursor', in: 'query', description: 'next_cursor of the page before, unchanged', schema: { type: 'string' } },
          ],
          responses: {
            200: { description: 'a page of saved models, newest first', content: { 'application/json': { schema: ref('SavedModels') } } },
            400: problem('limit outside 1…1000 (out_of_range), or a cursor this endpoint did not make (invalid_cursor)'),
            401: problem('missing or invalid key'),
            503: unavailable,
          },
        },
      },
      '/api/vision/v1/models/{model_id}': {
        get: {
          operationId: 'getSavedModel',
          summary: "One of the key's saved models",
          tags: ['accounts'],
          security: [{ ApiKey: [] }],
          parameters: [
            {
              name: 'model_id',
              in: 'path',
              required: true,
              description: 'id of a saved model of this account',
              schema: { type: 'string' },
            },
          ],
          responses: {
            200: { description: 'the saved model', content: { 'application/json': { schema: ref('SavedModel') } } },
            401: problem('missing or invalid key'),
            404: problem('no saved model of this account has this id (model_not_found)'),
            503: unavailable,
          },
        },
        delete: {
          operationId: 'deleteSavedModel',
          summary: "Delete one of the key's saved models",
          tags: ['accounts'],
          security: [{ ApiKey: [] }],
          parameters: [
            {
              name: 'model_id',
              in: 'path',
              required: true,
              description: 'id of a saved model of this account',
              schema: { type: 'string' },
            },
          ],
          responses: {
            204: { description: 'deleted, with its file' },
            401: problem('missing or invalid key'),
            404: problem('no saved model of this account has this id (model_not_found)'),
            503: unavailable,
          },
        },
      },
      '/api/vision/v1/models/{model_id}/file': {
        get: {
          operationId: 'getSavedModelFile',
          summary: "A saved model's file, as uploaded",
          tags: ['accounts'],
          security: [{ ApiKey: [] }],
          parameters: [
            {
              name: 'model_id',
              in: 'path',
              required: true,
              description: 'id of a saved model of this account',
              schema: { type: 'string' },
            },
            { name: 'If-None-Match', in: 'header', description: 'its ETag (its SHA-256, quoted)', schema: { type: 'string' } },
          ],
          responses: {
            200: {
              description: 'the file, under its uploaded name',
              headers: { ETag: { description: 'its SHA-256, quoted', schema: { type: 'string' } } },
              content: Object.fromEntries(
                ['application/x-step', 'application/zip', 'model/gltf-binary', 'model/vnd.usdz+zip'].map((t) => [
                  t,
                  { schema: { type: 'string', contentMediaType: t } },
                ]),
              ),
            },
            304: { description: 'not modified (If-None-Match matched)' },
            401: problem('missing or invalid key'),
            404: problem('no saved model of this account has this id (model_not_found)'),
            503: unavailable,
          },
        },
      },
      '/api/vision/v1/openapi.json': {
        get: {
          operationId: 'getOpenapiDocument',
          summary: 'This document',
          tags: ['service'],
          security: [],
          responses: {
            200: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } },
            408: timedOut,
          },
        },
      },
      '/s/{session_id}': {
        get: {
          operationId: 'getSessionPage',
          summary: 'The session page for people',
          tags: ['pages'],
          security: [],
          description:
            'HTML: a 3D preview of the first model with the placement drawn, View ' +
            'in AR (AR Quick Look on iOS, Scene Viewer on Android), the deep ' +
            'link as a QR code and a link, the one-time code, the expiry, each ' +
            "model's counts, sizes and warnings. No request goes to another host.",
          parameters: [sessionId],
          responses: {
            200: { description: 'the page', content: HTML },
            404: { description: 'a page saying there is no such session', content: HTML },
            410: { description: 'a page saying the session expired', content: HTML },
            503: unavailable,
          },
        },
      },
      '/s/assets/{name}': {
        get: {
          operationId: 'getPageAsset',
          summary: "The session page's scripts, style sheet and icon (model-viewer included)",
          tags: ['pages'],
          security: [],
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string', enum: PAGE_ASSET_NAMES } }],
          responses: {
            200: {
              description: 'the asset',
              content: {
                'text/javascript': { schema: { type: 'string' } },
                'text/css': { schema: { type: 'string' } },
                'image/svg+xml': { schema: { type: 'string' } },
              },
            },
            404: problem('unknown asset'),
          },
        },
      },
      ...(metrics && {
        '/metrics': {
          get: {
            operationId: 'getMetrics',
            summary:
              'Prometheus metrics of this process (text format 0.0.4); on the public port only with ' +
              'ARSESSION_METRICS_TOKEN, sent as a bearer token; served on ARSESSION_METRICS_PORT instead when that is set',
            tags: ['service'],
            security: [{ MetricsToken: [] }],
            responses: {
              200: {
                description:
                  "every metric: requests, sessions, conversions, cache, claims, queue, backing-service errors, Node's process metrics",
                content: { 'text/plain': { schema: { type: 'string' } } },
              },
              401: problem('no or wrong metrics token (metrics_token_invalid)'),
              408: timedOut,
            },
          },
        },
      }),
      '/': {
        get: {
          operationId: 'getRoot',
          summary: 'Where a person lands: links to the API reference, this document and health',
          tags: ['pages'],
          security: [],
          responses: { 200: { description: 'a page of links', content: HTML }, 408: timedOut },
        },
      },
      '/docs': {
        get: {
          operationId: 'getApiReference',
          summary: 'This document for people (HTML, rendered by Redocly; readable before its script runs)',
          tags: ['pages'],
          security: [],
          responses: {
            200: { description: 'the reference', content: HTML },
            404: problem('the reference was not built with this server (not_found): the JSON document is always served'),
          },
        },
      },
      '/docs/redoc.standalone.js': {
        get: {
          operationId: 'getApiReferenceScript',
          summary: "The reference page's script (Redoc), served here so the page loads nothing from another host",
          tags: ['pages'],
          security: [],
          responses: {
            200: { description: 'the script', content: { 'text/javascript': { schema: { type: 'string' } } } },
            404: problem('the reference was not built with this server (not_found)'),
          },
        },
      },
      '/.well-known/apple-app-site-association': {
        get: {
          operationId: 'getAppSiteAssociation',
          summary:
            'The universal-link association iOS reads: the apps of ARSESSION_APPLE_APP_IDS open session pages (/s/…) ' +
            'instead of the browser',
          tags: ['pages'],
          security: [],
          responses: {
            200: { description: 'the association (applinks)', content: { 'application/json': { schema: ref('AppSiteAssociation') } } },
            404: problem('no app is configured (not_found)'),
            408: timedOut,
          },
        },
      },
      '/healthz': {
        get: {
          operationId: 'getHealth',
          summary: 'Liveness',
          tags: ['service'],
          security: [],
          responses: {
            200: { description: 'the process answers', content: { 'application/json': { schema: ref('Health') } } },
            408: timedOut,
          },
        },
      },
      '/readyz': {
        get: {
          operationId: 'getReadiness',
          summary: 'Readiness: every dependency answers and the server is not shutting down',
          tags: ['service'],
          security: [],
          responses: {
            200: { description: 'ready', content: { 'application/json': { schema: ref('Readiness') } } },
            408: timedOut,
            503: { description: 'not ready; the checks say why', content: { 'application/json': { schema: ref('Readiness') } } },
          },
        },
      },
    },
    tags: [
      { name: 'sessions', description: 'AR sessions: created from models and a placement rule, read, downloaded, claimed' },
      { name: 'accounts', description: 'what an API key saved' },
      { name: 'pages', description: 'the session page for people' },
      { name: 'service', description: 'health and this document' },
    ],
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'issued by `arsession keys create --account NAME`' },
        MetricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'ARSESSION_METRICS_TOKEN: what Prometheus sends to scrape /metrics on the public port',
        },
      },
      schemas: describeFields(SCHEMAS),
    },
  };
}
