import { CONFIG_ENV } from '../config/ServerConfig.js';

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const jsonArray = (description: string, example: string): Schema => ({ type: 'string', contentMediaType: 'application/json', description: `${description} (a JSON array sent as a string)`, examples: [example] });
const jsonNumber = (description: string, example: string): Schema => ({ type: 'string', description: `${description} (a JSON number)`, examples: [example] });
const vec3 = (description: string): Schema => jsonArray(`${description}, metres, in the submitted model's frame`, '[0.0, 1.6, 2.0]');
const direction = (description: string): Schema => jsonArray(`${description}; need not be unit length`, '[0, 1, 0]');
const upAxis: Schema = { type: 'string', enum: ['y-up', 'z-up'], default: 'y-up', description: 'axis convention of the coordinates sent; z-up (x, y, z) becomes (x, z, −y)' };

const modelParts: Schema = {
  model_file: { type: 'string', format: 'binary', description: 'one model (IFC, ifcZIP, GLB or USDZ, recognised by content); exclusive with model_files' },
  model_files: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'several models as repeated parts; their order is kept in model_assets' },
  conversion: { type: 'string', contentMediaType: 'application/json', description: 'the conversion block as one JSON object, e.g. {"mode":"auto"}; or send conversion.mode' },
  'conversion.mode': { type: 'string', enum: ['auto'], description: '`custom` (and any conversion.custom.*) is refused with 400' },
};

function multipart(properties: Schema, required: string[] = []): Schema {
  return {
    required: true,
    content: { 'multipart/form-data': { schema: { type: 'object', properties: { ...modelParts, ...properties }, ...(required.length > 0 && { required }) } } },
  };
}

const problem = (description: string): Schema => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
const sessionErrors: Schema = {
  400: problem('the form breaks a rule (missing, duplicate or mutually exclusive fields, malformed JSON, conversion.custom)'),
  401: problem('X-API-Key missing where required, or not valid'),
  413: problem('a file, or the number of files or parts, over its limit'),
  415: problem('a model that is not IFC, GLB or USDZ (or a reference image that is not PNG/JPEG)'),
  422: problem('readable but unusable: invalid opening or anchor, no door found, unreadable model, GLB over 5000 mesh nodes'),
  503: { ...problem('the conversion pool is saturated, or the session store is out of reach (saturated, store_unavailable)'), headers: { 'Retry-After': { schema: { type: 'integer' } } } },
};

function sessionEndpoint(summary: string, description: string, body: Schema, keyOptional = false): Schema {
  return {
    post: {
      summary, description, requestBody: body,
      security: keyOptional ? [{}, { ApiKey: [] }] : [{ ApiKey: [] }],
      responses: { 201: { description: 'created once the models were read, placed and converted', content: { 'application/json': { schema: ref('SessionResponse') } } }, ...sessionErrors },
    },
  };
}

const anchor = (kind: string, fields: Record<string, Schema>, required: string[]) => multipart({
  'virtual_anchor.anchor_type': { type: 'string', enum: [kind], description: 'optional; when sent it must name this endpoint\'s kind (any other value: 400 unknown_value)' },
  'virtual_anchor.coordinate_system': upAxis,
  ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [`virtual_anchor.${k}`, v])),
}, required.map((r) => `virtual_anchor.${r}`));

const pose: Schema = {
  type: 'object', required: ['position', 'rotation', 'matrix'],
  properties: {
    position: { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 },
    rotation: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4, description: 'unit quaternion [x, y, z, w]' },
    matrix: { type: 'array', items: { type: 'number' }, minItems: 16, maxItems: 16, description: 'column-major 4×4' },
  },
};

/**
 * The OpenAPI 3.1 description of the whole HTTP interface, served at
 * `GET /api/vision/v1/openapi.json` and checked against the OpenAPI schema in the tests.
 */
export function openapiDocument(): Schema {
  const sessionPath = '/api/vision/v1/session';
  return {
    openapi: '3.1.0',
    info: {
      title: 'arsession', version: '1.0.0',
      description: `Creates AR sessions from building models (IFC, GLB, USDZ). Every path also answers with a trailing slash. Coordinates are metres in the submitted model's frame; every pose the server reports is in the delivered USDZ's frame (right-handed, Y-up, metres): a submitted point p lands at to_y_up(p) − model_frame.offset. Errors are application/problem+json with a field list. Server settings: ${Object.values(CONFIG_ENV).join(', ')}.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    paths: {
      [`${sessionPath}/by_plane/`]: sessionEndpoint('Place the model on a plane', 'The placement is the footprint anchor (bottom centre of the bounds). X-API-Key is optional; with a valid key the models are saved to its account.', multipart({}), true),
      [`${sessionPath}/by_scan/`]: sessionEndpoint('Place the model by a door opening', 'Mode 1: point_1 + point_2, the server detects the door. Mode 2: corners + wall_normal.', multipart({
        'alignment.point_1': vec3('where the user stands'),
        'alignment.point_2': direction('the direction of the gaze'),
        'alignment.corners': jsonArray('four points [BL, BR, TR, TL] seen from the side wall_normal points to', '[[-0.45,0,0],[0.45,0,0],[0.45,2.1,0],[-0.45,2.1,0]]'),
        'alignment.wall_normal': direction('the wall normal, toward the viewer'),
        'alignment.coordinate_system': upAxis,
      })),
      [`${sessionPath}/by_virtual_anchor/circle-directional/`]: sessionEndpoint('Anchor: circle with direction', 'Frame: origin at center, y along plane_normal, x along direction.', anchor('circle_directional', 
        { center: vec3('circle centre'), radius: jsonNumber('radius (m)', '0.5'), plane_normal: direction('normal of the circle plane'), direction: direction('forward, in the plane') },
        ['center', 'radius', 'plane_normal', 'direction'])),
      [`${sessionPath}/by_virtual_anchor/rectangle-short-side/`]: sessionEndpoint('Anchor: rectangle by its short side', 'Frame: origin at center, y along plane_normal, x along short_side_direction.', anchor('rectangle_short_side', 
        { center: vec3('rectangle centre'), width: jsonNumber('width (m)', '0.6'), height: jsonNumber('height (m)', '1.2'), plane_normal: direction('normal of the plane'), short_side_direction: direction('direction of the short side') },
        ['center', 'width', 'height', 'plane_normal', 'short_side_direction'])),
      [`${sessionPath}/by_virtual_anchor/corner-directional/`]: sessionEndpoint('Anchor: corner', 'Frame: origin at the corner, y along plane_normal, x bisecting the two edges.', anchor('corner_directional', 
        { corner: vec3('the corner'), edge_1_direction: direction('first edge leaving the corner'), edge_2_direction: direction('second edge'), plane_normal: direction('normal of the plane') },
        ['corner', 'edge_1_direction', 'edge_2_direction', 'plane_normal'])),
      [`${sessionPath}/by_virtual_anchor/segment-directional/`]: sessionEndpoint('Anchor: segment with direction', 'Frame: origin at the midpoint, y along plane_normal, x from point 1 to point 2.', anchor('segment_directional', 
        { segment_point_1: vec3('segment start'), segment_point_2: vec3('segment end'), plane_normal: direction('normal of the plane'), placement_source: { type: 'string', enum: ['model_surface'], default: 'model_surface', description: 'any other value: 400 unknown_value' } },
        ['segment_point_1', 'segment_point_2', 'plane_normal'])),
      [`${sessionPath}/by_refimage/`]: sessionEndpoint('Place by a reference image', 'Frame of the printed image in ARKit image-anchor convention: y along normal, x to the image right, z to its bottom.', multipart({
        reference_image: { type: 'string', format: 'binary', description: 'PNG or JPEG' },
        'reference_image.physical_width': jsonNumber('printed width (m)', '0.3'),
        'reference_image.center': vec3('centre of the printed image on the model'),
        'reference_image.normal': direction('normal of the image face'),
        'reference_image.up': direction('up direction of the image, in its plane'),
        'reference_image.coordinate_system': upAxis,
      }, ['reference_image', 'reference_image.physical_width', 'reference_image.center', 'reference_image.normal', 'reference_image.up'])),
      [`${sessionPath}/claim/`]: {
        post: {
          summary: 'Trade a one-time code for its session (once)',
          requestBody: {
            required: true,
            content: Object.fromEntries(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'].map((t) => [t, { schema: { type: 'object', required: ['onetime_code'], properties: { onetime_code: { type: 'string', pattern: '^[0-9]{6}$' } } } }])),
          },
          responses: {
            200: { description: 'the session', content: { 'application/json': { schema: ref('ClaimResponse') } } },
            400: problem('no or malformed onetime_code'),
            404: problem('unknown, used or expired code'),
            429: { ...problem('too many attempts'), headers: { 'Retry-After': { schema: { type: 'integer' } } } },
          },
        },
      },
      [`${sessionPath}/{session_id}/`]: {
        get: {
          summary: 'The session detail record', parameters: [{ name: 'session_id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'detail', content: { 'application/json': { schema: ref('SessionDetail') } } }, 404: problem('unknown session'), 410: problem('expired session') },
        },
      },
      [`${sessionPath}/{session_id}/files/{name}`]: {
        get: {
          summary: 'A delivered file (USDZ, Reality, reference image): ETag, byte ranges, conditional requests',
          parameters: [{ name: 'session_id', in: 'path', required: true, schema: { type: 'string' } }, { name: 'name', in: 'path', required: true, schema: { type: 'string' } }, { name: 'Range', in: 'header', schema: { type: 'string' } }],
          responses: {
            200: { description: 'the file', content: { 'model/vnd.usdz+zip': { schema: { type: 'string', contentMediaType: 'model/vnd.usdz+zip' } }, 'model/vnd.reality': {}, 'image/png': {}, 'image/jpeg': {} } },
            206: { description: 'a byte range' }, 304: { description: 'not modified' }, 404: problem('unknown file'), 410: problem('expired session'), 416: { description: 'range not satisfiable' },
          },
        },
      },
      '/api/vision/v1/models/': {
        get: {
          summary: "The key's saved models", security: [{ ApiKey: [] }],
          responses: { 200: { description: 'saved models, newest first', content: { 'application/json': { schema: ref('SavedModels') } } }, 401: problem('missing or invalid key') },
        },
      },
      '/api/vision/v1/openapi.json': { get: { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1', content: { 'application/json': {} } } } } },
      '/healthz': { get: { summary: 'Liveness', responses: { 200: { description: 'the process answers' } } } },
      '/readyz': { get: { summary: 'Readiness', responses: { 200: { description: 'ready' }, 503: { description: 'not ready (shutting down, the session store out of reach, or the disk failing)' } } } },
    },
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'issued by `arsession keys create --account NAME`' } },
      schemas: {
        SessionResponse: {
          type: 'object', required: ['deeplink', 'expires_at', 'onetime_code'],
          properties: {
            deeplink: { type: 'string', format: 'uri', examples: ['arsession://session/3q2-7wEjS0mZ1T2V0X9dQg'] },
            expires_at: { type: 'string', format: 'date-time', pattern: 'Z$' },
            onetime_code: { type: 'string', pattern: '^[0-9]{6}$' },
          },
        },
        ClaimResponse: {
          type: 'object', required: ['session_id', 'deeplink', 'expires_at'],
          properties: { session_id: { type: 'string' }, deeplink: { type: 'string', format: 'uri' }, expires_at: { type: 'string', format: 'date-time' } },
        },
        Pose: pose,
        ModelAsset: {
          type: 'object', required: ['order', 'source_name', 'preferred_format', 'reality_url', 'usdz_url'],
          properties: {
            order: { type: 'integer', minimum: 0 }, source_name: { type: 'string' },
            preferred_format: { type: 'string', enum: ['reality', 'usdz'] },
            reality_url: { type: ['string', 'null'], format: 'uri', description: 'null unless a Reality compiler is configured' },
            usdz_url: { type: 'string', format: 'uri' },
            format: { type: 'string', enum: ['ifc', 'ifczip', 'glb', 'usdz'] },
            usdz_delivery: { type: 'string', enum: ['converted', 'as_uploaded', 'repacked'], description: 'converted: written from the model; as_uploaded: an ARKit-ready USDZ upload delivered byte for byte; repacked: one whose only faults were compression or alignment, repacked with its contents untouched' },
            source_bytes: { type: 'integer' }, usdz_bytes: { type: 'integer' }, usdz_sha256: { type: 'string' },
            triangles: { type: 'integer' }, mesh_nodes: { type: 'integer' }, draw_calls: { type: 'integer' }, elements: { type: 'integer' },
            bounds: { type: 'object', properties: { min: { type: 'array', items: { type: 'number' } }, max: { type: 'array', items: { type: 'number' } } } },
            offset: { type: 'array', items: { type: 'number' }, description: "this model's own re-centring (Y-up, m)" },
            warnings: { type: 'array', items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } } },
          },
        },
        SessionDetail: {
          type: 'object', required: ['session_id', 'deeplink', 'created_at', 'expires_at', 'placement', 'model_frame', 'model_assets'],
          properties: {
            session_id: { type: 'string' }, deeplink: { type: 'string', format: 'uri' },
            created_at: { type: 'string', format: 'date-time' }, expires_at: { type: 'string', format: 'date-time' },
            placement: {
              type: 'object', required: ['method'],
              description: 'by_plane: anchor (Pose). by_scan: found (detected|given), corners [BL, BR, TR, TL], wall_normal, width, height, frame (Pose), detection {method, confidence, source}. by_virtual_anchor: anchor_type, pose, correction_deg and the size fields. by_refimage: pose, physical_width, image_url.',
              properties: { method: { type: 'string', enum: ['by_plane', 'by_scan', 'by_virtual_anchor', 'by_refimage'] } },
            },
            model_frame: {
              type: 'object', required: ['offset'],
              properties: { up_axis: { const: 'y' }, handedness: { const: 'right' }, units: { const: 'm' }, offset: { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 } },
            },
            model_assets: { type: 'array', items: ref('ModelAsset') },
          },
        },
        SavedModels: {
          type: 'object', required: ['account', 'models'],
          properties: {
            account: { type: 'string' },
            models: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, session_id: { type: 'string' }, source_name: { type: 'string' }, format: { type: 'string' }, bytes: { type: 'integer' }, sha256: { type: 'string' }, created_at: { type: 'string', format: 'date-time' } } } },
          },
        },
        Problem: {
          type: 'object', required: ['type', 'title', 'status', 'detail', 'errors'],
          properties: {
            type: { type: 'string', format: 'uri', description: 'urn:arsession:problem:<code>' }, title: { type: 'string' }, status: { type: 'integer' },
            detail: { type: 'string' }, code: { type: 'string' }, request_id: { type: 'string' },
            errors: { type: 'array', items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' }, code: { type: 'string' } } } },
            reason: { type: 'string', description: 'by_scan mode 1: why no door was found' },
          },
        },
      },
    },
  };
}
