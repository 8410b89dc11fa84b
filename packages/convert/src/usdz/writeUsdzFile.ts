import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { writeHashedFile, type WrittenFile } from '../io/writeHashedFile.js';
import type { SceneData } from '../scene/SceneData.js';
import { textureEntryName } from './layer/describeLayer.js';
import { writeUsdaLayer } from './writeUsdaLayer.js';
import { rootLayerName, WRITE_USDZ_DEFAULTS, writeUsdz, type WriteUsdzOptions } from './writeUsdz.js';
import { zipLayout } from '@arsession/usd';

const COPY_CHUNK = 1 << 20;

/** What {@link writeUsdzFile} wrote: its size and SHA-256. */
export type WrittenUsdzFile = WrittenFile;

/**
 * Writes a scene as a USDZ file (the same bytes as {@link writeUsdz}) in bounded memory: a binary
 * layer's big arrays are the scene's own bytes, written straight out; a text layer streams to a
 * temporary file a mesh at a time with its CRC computed on the way, and the aligned zip is then
 * assembled around it. The file appears atomically (written aside, then renamed). Returns its
 * size and SHA-256, hashed on the way out (servers need it for ETags and integrity; reading the
 * file back to hash it would be a second pass).
 *
 * @example
 * ```ts
 * await writeUsdzFile(scene, 'out/house.usdz');
 * ```
 */
export function writeUsdzFile(scene: SceneData, path: string, options: Partial<WriteUsdzOptions> = {}): WrittenUsdzFile {
  const opts = { ...WRITE_USDZ_DEFAULTS, ...options };
  const layerPath = `${path}.${process.pid}.layer.partial`;
  try {
    return writeHashedFile(path, (write) => {
      if (opts.layerFormat === 'usdc') for (const part of writeUsdz(scene, opts)) write(part);
      else writeWithTextLayer(scene, rootLayerName(opts), { rootName: opts.rootName, instanceable: opts.instanceable }, layerPath, write);
    });
  } finally {
    rmSync(layerPath, { force: true });
  }
}

/**
 * A package that is already ARKit-ready (an upload delivered as it came) written the way
 * {@link writeUsdzFile} writes one: aside, renamed into place, hashed on the way out.
 *
 * @example
 * ```ts
 * writeUsdzBytesFile(upload, 'sessions/abc.0.usdz'); // → { bytes, sha256 }
 * ```
 */
export function writeUsdzBytesFile(bytes: Uint8Array, path: string): WrittenUsdzFile {
  return writeHashedFile(path, (write) => write(bytes));
}

function writeWithTextLayer(
  scene: SceneData,
  layerName: string,
  layerOptions: Pick<WriteUsdzOptions, 'rootName' | 'instanceable'>,
  layerPath: string,
  write: (data: Uint8Array, length?: number) => void,
): void {
  let crc = 0,
    size = 0;
  const layerFd = openSync(layerPath, 'w');
  try {
    for (const bytes of writeUsdaLayer(scene, layerOptions)) {
      crc = crc32(bytes, crc);
      size += bytes.length;
      writeSync(layerFd, bytes);
    }
  } finally {
    closeSync(layerFd);
  }
  const textures = scene.textures.map((t, i) => ({ name: textureEntryName(scene, i), size: t.data.length, crc: crc32(t.data) >>> 0 }));
  const { locals, tail } = zipLayout([{ name: layerName, size, crc: crc >>> 0 }, ...textures]);
  write(locals[0]!);
  copyFile(layerPath, write);
  scene.textures.forEach((t, i) => {
    write(locals[i + 1]!);
    write(t.data);
  });
  write(tail);
}

function copyFile(from: string, write: (data: Uint8Array, length: number) => void): void {
  const fd = openSync(from, 'r');
  const buffer = new Uint8Array(COPY_CHUNK);
  try {
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) write(buffer, n);
  } finally {
    closeSync(fd);
  }
}
