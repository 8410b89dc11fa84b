import { cameraBasis, type Camera } from './camera.js';

/** Triangles to draw, in the camera's frame (world space, Y-up metres). */
export interface RasterTriangles {
  /** xyz per vertex. */
  positions: Float32Array;
  /** Three vertex indices per triangle; absent: a soup, triangle `t` is vertices `3t`, `3t + 1`, `3t + 2`. */
  indices?: Uint32Array;
  /**
   * RGBA per triangle (sRGB). Alpha is not blended: 0 leaves the triangle undrawn, anything else
   * draws it opaque, so a caller can hide glass without copying the geometry.
   */
  colours: Uint8Array;
}

/** Options of {@link rasterize}. */
export interface RasterizeOptions {
  width: number;
  height: number;
  /** sRGB where nothing is drawn. */
  background: readonly [number, number, number];
  /** Share of a triangle's colour it gets whichever way it faces. */
  ambient: number;
  /** Share it gets on top, times |n·l|: both sides of a face are lit alike (BIM winding is inconsistent). */
  diffuse: number;
  /**
   * Towards the light, in the camera's frame (right, up, back towards the viewer): a headlight
   * raised and to the left, so faces at different angles to the view part in brightness
   * whichever way the camera looks.
   */
  light: readonly [number, number, number];
}

/** Defaults of {@link rasterize}. */
export const RASTERIZE_DEFAULTS: Readonly<RasterizeOptions> = {
  width: 1024,
  height: 640,
  background: [236, 239, 243],
  ambient: 0.3,
  diffuse: 0.7,
  light: [-0.45, 0.6, 0.66],
};

/**
 * Covers a pixel whose centre lies this far (in barycentric units) outside a triangle, so two
 * triangles sharing an edge leave no crack where float rounding puts the centre outside both.
 */
const EDGE_SLACK = 1e-7;

/** The buffers one {@link rasterize} call draws into. */
interface Target {
  rgba: Uint8Array;
  /** 1/depth per pixel (0: nothing drawn): linear across a projected triangle, unlike depth. */
  inverseDepth: Float32Array;
  width: number;
  height: number;
}

/**
 * Draws triangles into an RGBA image (`width × height × 4` bytes, rows top to bottom) with a
 * z-buffer, both faces of every triangle, each in one flat colour: its own times
 * `ambient + diffuse·|n·l|`. Triangles crossing the camera's near plane are clipped to it, not
 * dropped, so a camera standing inside a building sees the floor run under its feet. Pure and
 * deterministic, one thread, no GPU or driver: the same triangles and camera give the same pixels
 * on any machine (IEEE doubles throughout, triangles drawn in order). No allocation
 * per triangle or pixel: a projected triangle is scanned over its pixel bounding box with
 * incremental edge functions.
 *
 * @example
 * ```ts
 * const rgba = rasterize(
 *   { positions: new Float32Array([-1, 0, 0, 1, 0, 0, 0, 1, 0]), colours: new Uint8Array([200, 60, 60, 255]) },
 *   { eye: [0, 0.5, 3], target: [0, 0.5, 0], up: [0, 1, 0], fovY: 45, near: 0.1 },
 *   { width: 64, height: 40 },
 * );
 * rgba.length; // → 64 * 40 * 4
 * ```
 */
export function rasterize(triangles: RasterTriangles, camera: Camera, options: Partial<RasterizeOptions> = {}): Uint8Array {
  const { width, height, background, ambient, diffuse, light } = { ...RASTERIZE_DEFAULTS, ...options };
  const target: Target = { rgba: new Uint8Array(width * height * 4), inverseDepth: new Float32Array(width * height), width, height };
  for (let i = 0; i < width * height * 4; i += 4) {
    target.rgba[i] = background[0];
    target.rgba[i + 1] = background[1];
    target.rgba[i + 2] = background[2];
    target.rgba[i + 3] = 255;
  }

  const { eye, right, up, forward } = cameraBasis(camera);
  const [ex, ey, ez] = eye;
  const [rx, ry, rz] = right,
    [ux, uy, uz] = up,
    [fx, fy, fz] = forward;
  // Camera frame (right, up, forward) is `light`'s (right, up, back) with the last axis flipped.
  const lightLength = Math.hypot(light[0], light[1], light[2]);
  const lx = light[0] / lightLength,
    ly = light[1] / lightLength,
    lz = -light[2] / lightLength;
  const focal = height / 2 / Math.tan((camera.fovY * Math.PI) / 360);
  const near = camera.near;

  const { positions: p, indices, colours } = triangles;
  const count = indices ? indices.length / 3 : p.length / 9;
  // Camera-frame corners of the triangle at hand, then of its part in front of the near plane.
  const corner = new Float64Array(9);
  const clipped = new Float64Array(12);
  for (let t = 0; t < count; t++) {
    if (colours[t * 4 + 3] === 0) continue;
    for (let k = 0; k < 3; k++) {
      const v = (indices ? indices[t * 3 + k]! : t * 3 + k) * 3;
      const dx = p[v]! - ex,
        dy = p[v + 1]! - ey,
        dz = p[v + 2]! - ez;
      corner[k * 3] = dx * rx + dy * ry + dz * rz;
      corner[k * 3 + 1] = dx * ux + dy * uy + dz * uz;
      corner[k * 3 + 2] = dx * fx + dy * fy + dz * fz;
    }
    const z0 = corner[2]!,
      z1 = corner[5]!,
      z2 = corner[8]!;
    if (z0 < near && z1 < near && z2 < near) continue;
    // Flat shade from the normal in the camera frame (a rotation of the world's: same |n·l|).
    const ax = corner[3]! - corner[0]!,
      ay = corner[4]! - corner[1]!,
      az = z1 - z0;
    const bx = corner[6]! - corner[0]!,
      by = corner[7]! - corner[1]!,
      bz = z2 - z0;
    const nx = ay * bz - az * by,
      ny = az * bx - ax * bz,
      nz = ax * by - ay * bx;
    const nLength = Math.hypot(nx, ny, nz);
    if (nLength === 0) continue;
    const lit = ambient + (diffuse * Math.abs(nx * lx + ny * ly + nz * lz)) / nLength;
    const r = Math.min(255, Math.round(colours[t * 4]! * lit));
    const g = Math.min(255, Math.round(colours[t * 4 + 1]! * lit));
    const b = Math.min(255, Math.round(colours[t * 4 + 2]! * lit));
    if (z0 >= near && z1 >= near && z2 >= near) {
      drawTriangle(target, focal, corner, 0, 3, 6, r, g, b);
      continue;
    }
    // Sutherland–Hodgman against z = near: one corner behind leaves a quad, two leave a triangle.
    let n = 0;
    for (let k = 0; k < 3; k++) {
      const a = k * 3,
        c = ((k + 1) % 3) * 3;
      const za = corner[a + 2]!,
        zc = corner[c + 2]!;
      if (za >= near) {
        clipped[n * 3] = corner[a]!;
        clipped[n * 3 + 1] = corner[a + 1]!;
        clipped[n * 3 + 2] = za;
        n++;
      }
      if (za >= near !== zc >= near) {
        const s = (near - za) / (zc - za);
        clipped[n * 3] = corner[a]! + s * (corner[c]! - corner[a]!);
        clipped[n * 3 + 1] = corner[a + 1]! + s * (corner[c + 1]! - corner[a + 1]!);
        clipped[n * 3 + 2] = near;
        n++;
      }
    }
    for (let k = 1; k + 1 < n; k++) drawTriangle(target, focal, clipped, 0, k * 3, (k + 1) * 3, r, g, b);
  }
  return target.rgba;
}

/**
 * Projects one triangle (camera-frame corners at offsets `i0 i1 i2` of `v`, all at depth ≥ near)
 * and fills the pixels whose centres it covers and where it is nearest so far.
 */
function drawTriangle(
  target: Target,
  focal: number,
  v: Float64Array,
  i0: number,
  i1: number,
  i2: number,
  r: number,
  g: number,
  b: number,
): void {
  const { width, height, rgba, inverseDepth } = target;
  const halfW = width / 2,
    halfH = height / 2;
  const w0 = 1 / v[i0 + 2]!,
    w1 = 1 / v[i1 + 2]!,
    w2 = 1 / v[i2 + 2]!;
  const x0 = halfW + focal * v[i0]! * w0,
    y0 = halfH - focal * v[i0 + 1]! * w0;
  const x1 = halfW + focal * v[i1]! * w1,
    y1 = halfH - focal * v[i1 + 1]! * w1;
  const x2 = halfW + focal * v[i2]! * w2,
    y2 = halfH - focal * v[i2 + 1]! * w2;
  // Pixel (px, py) has its centre at (px + ½, py + ½): the first and last centres inside the box.
  const minX = Math.max(0, Math.ceil(Math.min(x0, x1, x2) - 0.5));
  const maxX = Math.min(width - 1, Math.floor(Math.max(x0, x1, x2) - 0.5));
  if (minX > maxX) return;
  const minY = Math.max(0, Math.ceil(Math.min(y0, y1, y2) - 0.5));
  const maxY = Math.min(height - 1, Math.floor(Math.max(y0, y1, y2) - 0.5));
  if (minY > maxY) return;
  const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  if (area === 0) return;
  const inv = 1 / area;
  // Barycentrics b_k = edge function of the edge opposite corner k ÷ area, linear in x and y:
  // positive inside whichever way the projected triangle winds.
  const b0x = -(y2 - y1) * inv,
    b1x = -(y0 - y2) * inv,
    b2x = -(y1 - y0) * inv;
  const zx = b0x * w0 + b1x * w1 + b2x * w2;
  const sx = minX + 0.5;
  for (let py = minY; py <= maxY; py++) {
    const sy = py + 0.5;
    let e0 = ((x2 - x1) * (sy - y1) - (y2 - y1) * (sx - x1)) * inv;
    let e1 = ((x0 - x2) * (sy - y2) - (y0 - y2) * (sx - x2)) * inv;
    let e2 = ((x1 - x0) * (sy - y0) - (y1 - y0) * (sx - x0)) * inv;
    let z = e0 * w0 + e1 * w1 + e2 * w2;
    let pixel = py * width + minX;
    for (let px = minX; px <= maxX; px++, pixel++) {
      if (e0 >= -EDGE_SLACK && e1 >= -EDGE_SLACK && e2 >= -EDGE_SLACK && z > inverseDepth[pixel]!) {
        inverseDepth[pixel] = z;
        rgba[pixel * 4] = r;
        rgba[pixel * 4 + 1] = g;
        rgba[pixel * 4 + 2] = b;
      }
      e0 += b0x;
      e1 += b1x;
      e2 += b2x;
      z += zx;
    }
  }
}
