// Peer for the GLB -> USDZ benchmark: three.js's own GLTFLoader + USDZExporter,
// run in plain Node.js (ESM, no browser, no DOM library).
//
// three.js needs a few browser APIs on this path. We install only those, once,
// at module load, and only where Node lacks them (so a real one always wins):
//
//  - self                : GLTFLoader reads `self.URL` to make blob: URLs for images
//                          embedded in the GLB (Node has URL.createObjectURL, and its
//                          fetch() reads blob: URLs, which ImageBitmapLoader uses).
//  - createImageBitmap   : its presence makes GLTFLoader pick ImageBitmapLoader
//                          (as in Chrome); it decodes the Blob with @napi-rs/canvas.
//  - ImageBitmap         : = @napi-rs/canvas's Image, the class createImageBitmap
//                          returns, so USDZExporter's `image instanceof ImageBitmap`
//                          check passes and drawImage() accepts it.
//  - document.createElement('canvas'): USDZExporter draws each texture into a
//                          canvas (resizing to maxTextureSize, default 1024) and
//                          re-encodes it with canvas.toBlob(cb, 'image/png'|'image/jpeg').
//                          @napi-rs/canvas's canvas has a Chrome-like toBlob (JPEG
//                          quality 0.92 by default, as Chrome); if a version lacks it we
//                          add one built on canvas.encode().
//
// Not shimmed (not touched on this path): window, navigator, HTMLImageElement,
// HTMLCanvasElement, OffscreenCanvas, Image for TextureLoader, WebGL.
//
// Decoders: EXT_meshopt_compression is handled with three's own meshopt decoder
// (pure JS + embedded WASM, runs in Node). Draco (DRACOLoader needs Web Workers and
// decoder files fetched by URL) and KTX2 (KTX2Loader needs Workers and a renderer;
// USDZExporter needs a WebGL/WebGPU renderer's textureUtils to decompress) are not
// set up: such files fail with three's own error.

import { createCanvas, Image } from '@napi-rs/canvas';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { USDZExporter } from 'three/examples/jsm/exporters/USDZExporter.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { createRequire } from 'node:module';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

// three's "exports" map hides ./package.json, so walk up from its resolved entry.
function pkgVersion(name) {
  try {
    let dir = dirname(require.resolve(name));
    for (;;) {
      const file = join(dir, 'package.json');
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, 'utf8'));
        if (pkg.name === name) return pkg.version;
      }
      const up = dirname(dir);
      if (up === dir) return 'unknown';
      dir = up;
    }
  } catch {
    return 'unknown';
  }
}

/** Versions used, for the results table. */
export const THREE_PEER = {
  three: pkgVersion('three'),
  canvas: `@napi-rs/canvas@${pkgVersion('@napi-rs/canvas')}`,
};

const SHIM_FLAG = Symbol.for('bench.threeUsdzExporter.shims');

function installShims() {
  const g = globalThis;
  if (g[SHIM_FLAG]) return;

  if (typeof g.self === 'undefined') g.self = g;

  if (typeof g.ImageBitmap === 'undefined') g.ImageBitmap = Image;

  if (typeof g.createImageBitmap === 'undefined') {
    // Only the Blob form is used by three's ImageBitmapLoader. Its options
    // (premultiplyAlpha: 'none', colorSpaceConversion: 'none') are what Skia's
    // decode into an Image already gives: unpremultiplied source, no ICC transform.
    g.createImageBitmap = async function createImageBitmap(source /* , options */) {
      if (!(source instanceof Blob)) {
        throw new TypeError('createImageBitmap shim: only Blob sources are supported');
      }
      const img = new Image();
      img.src = Buffer.from(await source.arrayBuffer());
      await img.decode();
      return img;
    };
  }

  if (typeof g.document === 'undefined') {
    const createElement = (tag) => {
      if (String(tag).toLowerCase() === 'canvas') return createCanvas(300, 150);
      throw new Error(`document shim: createElement('${tag}') is not supported`);
    };
    g.document = {
      createElement,
      createElementNS: (_ns, tag) => createElement(tag),
    };
  }

  // Recent @napi-rs/canvas has a native Chrome-like toBlob; add one only if missing.
  const proto = Object.getPrototypeOf(createCanvas(1, 1));
  if (typeof proto.toBlob !== 'function') {
    proto.toBlob = function toBlob(callback, type = 'image/png', quality) {
      const jpeg = String(type).toLowerCase() === 'image/jpeg';
      const q = typeof quality === 'number' && quality >= 0 && quality <= 1 ? quality : 0.92;
      const pending = jpeg ? this.encode('jpeg', Math.round(q * 100)) : this.encode('png');
      pending.then(
        (buf) => callback(new Blob([buf], { type: jpeg ? 'image/jpeg' : 'image/png' })),
        () => callback(null),
      );
    };
  }

  g[SHIM_FLAG] = true;
}

installShims();

/**
 * Converts GLB bytes to USDZ bytes with three.js (GLTFLoader + USDZExporter), the way a
 * three.js user in Node would: load the GLB, export gltf.scene with the exporter's
 * default options (maxTextureSize 1024, no animations, quickLookCompatible false).
 * Pass { maxTextureSize: 2048 } to match corpus/usdz/three-DamagedHelmet.usdz, which was
 * made that way (its 2048x2048 JPEGs are byte-identical to this file's output then).
 * @param {Uint8Array} glbBytes
 * @param {object} [exporterOptions] passed to USDZExporter.parseAsync (defaults if omitted)
 * @returns {Promise<Uint8Array>}
 */
export async function threeGlbToUsdz(glbBytes, exporterOptions = {}) {
  const data = glbBytes.buffer.slice(glbBytes.byteOffset, glbBytes.byteOffset + glbBytes.byteLength);
  const loader = new GLTFLoader();
  loader.setMeshoptDecoder(MeshoptDecoder);
  const gltf = await loader.parseAsync(data, '');
  const exporter = new USDZExporter();
  const out = await exporter.parseAsync(gltf.scene, exporterOptions);
  return out instanceof Uint8Array ? out : new Uint8Array(out);
}
