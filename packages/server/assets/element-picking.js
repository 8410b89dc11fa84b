// What a click on the session page's preview hit: the GLB's triangles in model space, each with
// its element (EXT_mesh_features feature ids into the EXT_structural_metadata table) and the
// storey variants (KHR_materials_variants) that hide it. Plain ES module: the page imports it,
// and the tests import it in Node.

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };
const BYTES = { 5121: 1, 5123: 2, 5125: 4, 5126: 4 };

/** A GLB's JSON and binary chunk. */
function chunks(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 20 || view.getUint32(0, true) !== 0x46546c67) throw new Error('not a GLB');
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  const binAt = 20 + jsonLength;
  const bin = binAt + 8 <= bytes.length ? bytes.subarray(binAt + 8, binAt + 8 + view.getUint32(binAt, true)) : new Uint8Array(0);
  return { json, bin };
}

/** An accessor's values as numbers, honouring interleaving (byteStride). */
function accessor(json, bin, index) {
  const a = json.accessors[index];
  const view = json.bufferViews[a.bufferView];
  const components = COMPONENTS[a.type];
  const size = BYTES[a.componentType];
  const stride = view.byteStride || components * size;
  const data = new DataView(bin.buffer, bin.byteOffset + (view.byteOffset || 0) + (a.byteOffset || 0));
  const read =
    a.componentType === 5126
      ? (at) => data.getFloat32(at, true)
      : a.componentType === 5125
        ? (at) => data.getUint32(at, true)
        : a.componentType === 5123
          ? (at) => data.getUint16(at, true)
          : (at) => data.getUint8(at);
  const out = new Float64Array(a.count * components);
  for (let i = 0; i < a.count; i++) for (let c = 0; c < components; c++) out[i * components + c] = read(i * stride + c * size);
  return out;
}

/** A STRING column of a property table. */
function strings(json, bin, column) {
  const bytes = (v) => {
    const view = json.bufferViews[v];
    return bin.subarray(view.byteOffset || 0, (view.byteOffset || 0) + view.byteLength);
  };
  const raw = bytes(column.stringOffsets);
  const offsets = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const values = bytes(column.values);
  const count = raw.byteLength / 4 - 1;
  const out = [];
  for (let i = 0; i < count; i++)
    out.push(new TextDecoder().decode(values.subarray(offsets.getUint32(i * 4, true), offsets.getUint32(i * 4 + 4, true))));
  return out;
}

function multiply(a, b) {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

/** A node's local matrix: `matrix`, or translation · rotation · scale. */
function local(node) {
  if (node.matrix) return node.matrix;
  const [tx, ty, tz] = node.translation || [0, 0, 0];
  const [x, y, z, w] = node.rotation || [0, 0, 0, 1];
  const [sx, sy, sz] = node.scale || [1, 1, 1];
  return [
    (1 - 2 * (y * y + z * z)) * sx,
    2 * (x * y + z * w) * sx,
    2 * (x * z - y * w) * sx,
    0,
    2 * (x * y - z * w) * sy,
    (1 - 2 * (x * x + z * z)) * sy,
    2 * (y * z + x * w) * sy,
    0,
    2 * (x * z + y * w) * sz,
    2 * (y * z - x * w) * sz,
    (1 - 2 * (x * x + y * y)) * sz,
    0,
    tx,
    ty,
    tz,
    1,
  ];
}

/**
 * Everything a pick needs from a GLB: `triangles` (9 numbers each, model space), `element` (the
 * table row of each triangle, −1 for none), `hiddenIn` (per triangle, the variants that hide it,
 * as a bit mask: variant v hides it when bit v is set), `elements` (the table: id, globalId,
 * ifcClass, name; a file made before ids names its elements by GlobalId) and `variants` (their names).
 */
export function readPickable(bytes) {
  const { json, bin } = chunks(bytes);
  const metadata = json.extensions?.EXT_structural_metadata;
  const table = metadata?.propertyTables?.[0];
  const columns = {};
  for (const name of ['id', 'globalId', 'ifcClass', 'name'])
    columns[name] = table?.properties?.[name] ? strings(json, bin, table.properties[name]) : [];
  const elements = Array.from({ length: table?.count || 0 }, (_, i) => ({
    id: columns.id[i] || columns.globalId[i] || '',
    globalId: columns.globalId[i] || '',
    ifcClass: columns.ifcClass[i] || '',
    name: columns.name[i] || '',
  }));
  const variants = (json.extensions?.KHR_materials_variants?.variants || []).map((v) => v.name);
  const triangles = [];
  const element = [];
  const hiddenIn = [];
  const visit = (n, parent) => {
    const node = json.nodes[n];
    const world = multiply(parent, local(node));
    for (const prim of node.mesh === undefined ? [] : json.meshes[node.mesh].primitives) {
      if ((prim.mode ?? 4) !== 4 || prim.attributes.POSITION === undefined) continue;
      const p = accessor(json, bin, prim.attributes.POSITION);
      const indices = prim.indices === undefined ? Array.from({ length: p.length / 3 }, (_, i) => i) : accessor(json, bin, prim.indices);
      const feature = prim.extensions?.EXT_mesh_features?.featureIds?.[0];
      const ids =
        feature && feature.attribute !== undefined ? accessor(json, bin, prim.attributes[`_FEATURE_ID_${feature.attribute}`]) : null;
      let mask = 0;
      for (const mapping of prim.extensions?.KHR_materials_variants?.mappings || [])
        if (
          json.materials?.[mapping.material]?.alphaMode === 'MASK' &&
          json.materials[mapping.material].pbrMetallicRoughness?.baseColorFactor?.[3] === 0
        )
          for (const v of mapping.variants) mask |= 1 << v;
      for (let t = 0; t < indices.length; t += 3) {
        for (let k = 0; k < 3; k++) {
          const i = indices[t + k] * 3;
          const [x, y, z] = [p[i], p[i + 1], p[i + 2]];
          triangles.push(
            world[0] * x + world[4] * y + world[8] * z + world[12],
            world[1] * x + world[5] * y + world[9] * z + world[13],
            world[2] * x + world[6] * y + world[10] * z + world[14],
          );
        }
        const id = ids ? ids[indices[t]] : -1;
        element.push(id >= 0 && id < elements.length ? id : -1);
        hiddenIn.push(mask);
      }
    }
    for (const c of node.children || []) visit(c, world);
  };
  const scene = json.scenes?.[json.scene ?? 0] ?? json.scenes?.[0];
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  for (const root of scene?.nodes || []) visit(root, identity);
  return {
    triangles: Float64Array.from(triangles),
    element: Int32Array.from(element),
    hiddenIn: Int32Array.from(hiddenIn),
    elements,
    variants,
  };
}

/**
 * The element the ray from `origin` along `direction` hits first, among triangles that variant
 * `variant` (an index, or −1 for none) draws; `null` when it hits none of them or a triangle of
 * no element. Möller–Trumbore, both faces.
 */
export function pick(pickable, origin, direction, variant = -1) {
  const { triangles, element, hiddenIn, elements } = pickable;
  const [ox, oy, oz] = origin;
  const [dx, dy, dz] = direction;
  let nearest = Number.POSITIVE_INFINITY;
  let hit = -1;
  for (let t = 0, n = element.length; t < n; t++) {
    if (variant >= 0 && hiddenIn[t] & (1 << variant)) continue;
    const i = t * 9;
    const ax = triangles[i],
      ay = triangles[i + 1],
      az = triangles[i + 2];
    const e1x = triangles[i + 3] - ax,
      e1y = triangles[i + 4] - ay,
      e1z = triangles[i + 5] - az;
    const e2x = triangles[i + 6] - ax,
      e2y = triangles[i + 7] - ay,
      e2z = triangles[i + 8] - az;
    const px = dy * e2z - dz * e2y,
      py = dz * e2x - dx * e2z,
      pz = dx * e2y - dy * e2x;
    const det = e1x * px + e1y * py + e1z * pz;
    if (Math.abs(det) < 1e-12) continue;
    const inv = 1 / det;
    const sx = ox - ax,
      sy = oy - ay,
      sz = oz - az;
    const u = (sx * px + sy * py + sz * pz) * inv;
    if (u < 0 || u > 1) continue;
    const qx = sy * e1z - sz * e1y,
      qy = sz * e1x - sx * e1z,
      qz = sx * e1y - sy * e1x;
    const v = (dx * qx + dy * qy + dz * qz) * inv;
    if (v < 0 || u + v > 1) continue;
    const d = (e2x * qx + e2y * qy + e2z * qz) * inv;
    if (d > 1e-9 && d < nearest) {
      nearest = d;
      hit = t;
    }
  }
  if (hit < 0 || element[hit] < 0) return null;
  return { ...elements[element[hit]], distance: nearest };
}
