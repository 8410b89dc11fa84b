import type { Schema } from './components.js';

/**
 * The glossary of field names that mean the same wherever they appear (`triangles`, `sha256`,
 * `method`, …): each said once here rather than in every record that has the field. A field
 * that means something of its own in one record says so in its schema, which wins. A test holds
 * every property of the served document to having a description.
 */
const FIELD_DESCRIPTIONS: Readonly<Record<string, string>> = {
  // Sessions.
  session_id: "the session's id: 128 random bits, URL-safe; the capability to read it",
  deeplink: 'the link the app opens: <scheme>://session/<session_id> (ARSESSION_DEEPLINK_SCHEME)',
  expires_at: 'when the session expires (ISO 8601, UTC); after it, its id answers 410 and its files are deleted',
  created_at: 'when the session was made (ISO 8601, UTC)',
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
  triangles: 'triangles drawn',
  mesh_nodes: 'prims (nodes) with a mesh, as delivered',
  draw_calls: 'draw calls a renderer makes for it: mesh prims times their materials',
  elements: 'elements of the source model before merging (IFC products, GLB mesh nodes, USD mesh prims)',
  door_openings: 'door openings the IFC model lists (IfcDoor in an IfcOpeningElement), absent for other formats',
  mesh_prims: 'mesh prims',
  texture_px: 'longest texture side (pixels)',
  package_bytes: 'USDZ package size (bytes)',
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
 * The schemas with every property that has no description of its own given the glossary's for
 * its name.
 *
 * @example
 * ```ts
 * const schemas = describeFields(SCHEMAS);
 * ```
 */
export function describeFields<T extends Record<string, Schema>>(schemas: T): T {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, describe(schema)])) as T;
}

function describe(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((s) => describe(s));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  const properties = out.properties as Record<string, Schema> | undefined;
  if (properties) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([field, p]) => {
        const described = p.description === undefined ? { ...p, ...descriptionOf(field) } : p;
        return [field, describe(described)];
      }),
    );
  }
  for (const key of ['items', 'oneOf', 'anyOf', 'allOf']) if (out[key] !== undefined) out[key] = describe(out[key]);
  return out;
}

function descriptionOf(field: string): { description?: string } {
  const description = FIELD_DESCRIPTIONS[field];
  return description === undefined ? {} : { description };
}
