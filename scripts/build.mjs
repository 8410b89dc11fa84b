#!/usr/bin/env node
// The workspace build: TypeScript project references (tsc -b), then the one bundle we ship, the
// in-thread conversion of `@arsession/convert/thread` (see bundleThread below).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
buildApiReference();

/**
 * The HTML API reference the server serves at /docs: Redocly's rendering of the OpenAPI document,
 * its script served beside it (the page loads nothing from another host). Made where Redocly is
 * installed (the workspace); a server installed without it answers /docs by pointing at the JSON.
 */
function buildApiReference() {
  const redocly = join(root, 'node_modules', '@redocly', 'cli');
  if (!existsSync(redocly)) return;
  const out = join(root, 'packages', 'server', 'dist', 'docs');
  mkdirSync(out, { recursive: true });
  const spec = join(out, 'openapi.json');
  const documentModule = pathToFileURL(join(root, 'packages', 'server', 'dist', 'openapi', 'openapiDocument.js')).href;
  const document = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { openapiDocument } from ${JSON.stringify(documentModule)};
     process.stdout.write(JSON.stringify(openapiDocument({})));`,
    ],
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  if (document.status !== 0) throw new Error(`the OpenAPI document could not be made: ${document.stderr}`);
  writeFileSync(spec, document.stdout);
  const html = join(out, 'index.html');
  const run = spawnSync(
    process.execPath,
    [join(redocly, 'bin', 'cli.js'), 'build-docs', spec, '-o', html, '--title', 'arsession API reference', '--openapi.disableTelemetry'],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`redocly build-docs failed: ${run.stderr}`);
  // The page reaches no other host: Redoc's script from this server, not Redocly's CDN, and its
  // attribution logo (an image on Redocly's CDN) an empty picture. The page checks the script's
  // integrity, so the hash it expects is the changed script's.
  const script = readFileSync(join(redocly, 'lib', 'chunks', 'redoc.standalone.js'), 'utf8').replace(
    /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g,
    'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E',
  );
  writeFileSync(join(out, 'redoc.standalone.js'), script);
  const integrity = `sha384-${createHash('sha384').update(script).digest('base64')}`;
  writeFileSync(
    html,
    readFileSync(html, 'utf8')
      .replace(/https:\/\/cdn\.redocly\.com\/redoc\/[^"']*\/redoc\.standalone\.js/g, '/docs/redoc.standalone.js')
      .replace(/integrity="sha384-[^"]*"/g, `integrity="${integrity}"`)
      // No icon of its own: none is asked for (a browser would ask for /favicon.ico).
      .replace('<head>', '<head><link rel="icon" href="data:,">'),
  );
}
