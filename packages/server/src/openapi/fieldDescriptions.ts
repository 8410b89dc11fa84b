import type { Schema } from './components.js';

/**
 * What a field means where its schema does not say it itself: first by `Schema.field`, then by
 * field name alone (a name means the same wherever it appears). `describeFields` puts them in the
 * document; a test holds every property of the served document to having a description.
 */
const FIELD_DESCRIPTIONS: Readonly<Record<string, string>> = {
  // Sessions.
  session_id: "the session's id: 128 random bits, URL-safe; the capability to read it",
  deeplink: 'the link the app opens: <scheme>://session/<session_id> (ARSESSION_DEEPLINK_SCHEME)',
  expires_at: 'when the session expires (ISO 8601, UTC); after it, its id answers 410 and its files are deleted',
  created_at: 'when the session was made (ISO 8601, UTC)',
  'SessionDetail.model_frame': 'the frame every delivered file and every pose is in: Y-up, right-handed, metres, shifted by offset',
  up_axis: 'always y: the delivered files are Y-up',
  handedness: 'always right',
  units: 'always m (metres)',
  model_assets: 'the delivered models, in upload order',
  // Placements.
  method:
    'how it was placed (by_plane, by_scan, by_virtual_anchor, by_refimage), or how mode 1 ' +
    'found the door (semantic: from the IFC door elements; geometric: from the surfaces)',
  quick_look: "how AR Quick Look anchors the session's packages (null for sessions made before)",
  warnings: 'numbers the request sent that are valid but look like mistakes, by code; empty when none',
  found: 'detected (mode 1: the server found the door from point_1 and point_2) or given (mode 2: the corners sent)',
  width: 'width (m)',
  height: 'height (m)',
  'ByScanPlacement.width': 'clear width of the opening (m): the mean of its bottom and top edges',
  'ByScanPlacement.height': 'clear height of the opening (m): the mean of its sides',
  confidence: 'how sure the detection is, 0–1',
  source: 'the model element the opening belongs to (its IFC GlobalId and name), when the model names it',
  id: 'its id',
  name: 'its name in the model',
  anchor_type: 'the anchor kind: the endpoint it was made by',
  pose: "the anchor's frame in the delivered frame",
  length: "the segment's length (m)",
  placement_source: "model_surface: the segment lies on the model's surface",
  radius: "the circle's radius (m)",
  opening_angle_deg: "the angle between the corner's two edges (degrees)",
  physical_width: "the printed image's width (m)",
  correction_deg: 'how far a sent direction was turned to be perpendicular to its normal (degrees)',
  image_url: 'the reference image as uploaded, for ARReferenceImage',
  anchoring: 'plane, image, or none (AR Quick Look cannot anchor it: reason says why)',
  alignment: 'horizontal (floor, table) or vertical (wall) plane',
  frame: "the anchor's frame in the delivered frame",
  reason: 'why, in words',
  // Assets.
  order: 'its place in the upload order, from 0',
  source_name: 'its file name as uploaded',
  format: 'the format it was read as, by content',
  preferred_format: 'reality when there is a Reality file, else usdz: the file the client should take first',
  usdz_url: 'the delivered USDZ',
  source_bytes: 'size of the upload (bytes)',
  usdz_bytes: 'size of the delivered USDZ (bytes)',
  usdz_sha256: 'SHA-256 of the delivered USDZ, hex (also its ETag)',
  glb_bytes: 'size of the delivered GLB (bytes); null for sessions made before GLBs were delivered',
  glb_sha256: 'SHA-256 of the delivered GLB, hex; null for sessions made before GLBs were delivered',
  zip_bytes: 'size of the parts zip (bytes)',
  zip_sha256: 'SHA-256 of the parts zip, hex (also its ETag)',
  'ModelPart.cell.index': 'which cell, from 0: cut in halves across the longer side, the lower coordinates first',
  'ModelPart.cell.count': 'how many cells its storey was cut into',
  triangles: 'triangles drawn',
  mesh_nodes: 'prims (nodes) with a mesh, as delivered',
  draw_calls: 'draw calls a renderer makes for it: mesh prims times their materials',
  elements: 'elements of the source model before merging (IFC products, GLB mesh nodes, USD mesh prims)',
  door_openings: 'door openings the IFC model lists (IfcDoor in an IfcOpeningElement), absent for other formats',
  mesh_prims: 'mesh prims',
  texture_px: 'longest texture side (pixels)',
  package_bytes: 'USDZ package size (bytes)',
  'ArBudget.limits.triangles': 'the triangle limit (ARSESSION_BUDGET_TRIANGLES)',
  'ArBudget.source': 'the figures of the model as read',
  'ArBudget.delivered': 'the figures of the delivered model',
  elements_left_out: 'elements of this class left out',
  'ArBudgetCategory.left_out.elements': 'elements of this class left out',
  // Service.
  status: 'ok, ready or not_ready; in a problem, the HTTP status',
  in_flight: 'session requests this process is working on',
  capacity: 'session requests it takes at once before answering 503 (workers plus queue)',
  // Problems.
  title: 'the HTTP status in words',
  detail: 'what was wrong, in words, naming the field and the figure',
  code: 'what was wrong, as a stable code',
  field: 'the field at fault, as the request named it (a form field, a header, a path part)',
  message: 'what was wrong with it',
};

/**
 * The schemas with every property that has no description of its own given the one above for its
 * name (`Schema.path.field` first, then `field`).
 *
 * @example
 * ```ts
 * const schemas = describeFields(SCHEMAS);
 * ```
 */
export function describeFields<T extends Record<string, Schema>>(schemas: T): T {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, describe(schema, name)])) as T;
}

function describe(schema: unknown, path: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => describe(s, path));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  const properties = out.properties as Record<string, Schema> | undefined;
  if (properties) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([field, p]) => {
        const described = p.description === undefined ? { ...p, ...descriptionOf(path, field) } : p;
        return [field, describe(described, `${path}.${field}`)];
      }),
    );
  }
  for (const key of ['items', 'oneOf', 'anyOf', 'allOf']) if (out[key] !== undefined) out[key] = describe(out[key], path);
  return out;
}

function descriptionOf(path: string, field: string): { description?: string } {
  const description =
    FIELD_DESCRIPTIONS[`${path}.${field}`] ?? FIELD_DESCRIPTIONS[`${path.split('.')[0]}.${field}`] ?? FIELD_DESCRIPTIONS[field];
  return description === undefined ? {} : { description };
}
