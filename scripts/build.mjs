#!/usr/bin/env node
// The workspace build: TypeScript project references (tsc -b), then the one bundle we ship, the
// in-thread conversion of `@arsession/convert/thread` (see bundleThread below).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

/**
 * `arsession convert FILE` is one model in one short process, where loading ~100 ES modules one by
 * one costs more than converting a small model. One bundle, with each reader split into a chunk
 * of its own (loaded by the format it reads), loads in a few milliseconds. web-ifc stays outside (we
 * load it ourselves with a code cache), as do the packages with native or CommonJS loaders of their own.
 */
async function bundleThread() {
  const convert = join(root, 'packages', 'convert');
  // Chunk names carry their content's hash: old ones would pile up.
  rmSync(join(convert, 'dist', 'bundle'), { recursive: true, force: true });
  return build({
    entryPoints: { thread: join(convert, 'src', 'thread.ts') },
    outdir: join(convert, 'dist', 'bundle'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // The workspace's own packages from their TypeScript sources, as the tests read them.
    conditions: ['source'],
    // ES modules where a package has both (gl-matrix): only what is used is bundled.
    mainFields: ['module', 'main'],
    external: ['web-ifc', 'sharp', 'three', 'draco3dgltf'],
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    logLevel: 'warning',
    metafile: !!process.env.META,
  });
}

const result = await bundleThread();
if (process.env.META) (await import('node:fs')).writeFileSync(process.env.META, JSON.stringify(result.metafile));
