import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import type { SceneData } from '../scene/SceneData.js';
import { textureEntryName, writeUsdaLayer } from './writeUsdaLayer.js';
import { WRITE_USDZ_DEFAULTS, type WriteUsdzOptions } from './writeUsdz.js';
import { zipLayout } from './zipStored.js';

const COPY_CHUNK = 1 << 20;

/**
 * Writes a scene as a USDZ file (the same bytes as {@link writeUsdz}) without holding the layer
 * in memory: the USDA text streams to a temporary file a mesh at a time with its CRC computed on
 * the way, then the aligned zip is assembled around it. Memory stays bounded by the largest mesh,
 * whatever the model's size. The file appears atomically (written aside, then renamed).
 * Returns its size in bytes.
 *
 * @example
 * ```ts
 * await writeUsdzFile(scene, 'out/house.usdz');
 * ```
 */
export function writeUsdzFile(scene: SceneData, path: string, options: Partial<WriteUsdzOptions> = {}): number {
  const opts = { ...WRITE_USDZ_DEFAULTS, ...options };
  const layerPath = `${path}.${process.pid}.layer.partial`;
  const zipPath = `${path}.${process.pid}.partial`;
  try {
    let crc = 0, size = 0;
    const layerFd = openSync(layerPath, 'w');
    try {
      for (const bytes of writeUsdaLayer(scene, { rootName: opts.rootName })) {
        crc = crc32(bytes, crc);
        size += bytes.length;
        writeSync(layerFd, bytes);
      }
    } finally {
      closeSync(layerFd);
    }
    const textures = scene.textures.map((t, i) => ({ name: textureEntryName(scene, i), size: t.data.length, crc: crc32(t.data) >>> 0 }));
    const { locals, tail } = zipLayout([{ name: opts.layerName, size, crc: crc >>> 0 }, ...textures]);
    const out = openSync(zipPath, 'w');
    try {
      writeSync(out, locals[0]!);
      copyFile(layerPath, out);
      scene.textures.forEach((t, i) => {
        writeSync(out, locals[i + 1]!);
        writeSync(out, t.data);
      });
      writeSync(out, tail);
    } finally {
      closeSync(out);
    }
    renameSync(zipPath, path);
    return locals.reduce((n, l) => n + l.length, 0) + size + scene.textures.reduce((n, t) => n + t.data.length, 0) + tail.length;
  } finally {
    rmSync(layerPath, { force: true });
    rmSync(zipPath, { force: true });
  }
}

function copyFile(from: string, toFd: number): void {
  const fd = openSync(from, 'r');
  const buffer = new Uint8Array(COPY_CHUNK);
  try {
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) writeSync(toFd, buffer, 0, n);
  } finally {
    closeSync(fd);
  }
}
