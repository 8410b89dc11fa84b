// Nodes of one cluster may run different Node releases during an upgrade and share one conversion
// cache: the same model must convert to the same bytes on each supported runtime. The other
// runtime is the one `pnpm test` runs the suite on besides this (ARSESSION_COMPARE_NODE), or else
// Node 24 LTS, an official binary from the npm registry (scripts/node-runtime.mjs, cached).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module of the repository's scripts, without types
import { nodeRuntime } from '../scripts/node-runtime.mjs';
import { corpusPath, REPO_ROOT } from './support/corpus.js';

const CLI = join(REPO_ROOT, 'packages', 'cli', 'bin', 'arsession.js');
const other: string = process.env.ARSESSION_COMPARE_NODE ?? nodeRuntime(process.versions.node.startsWith('24.') ? '22.23.3' : '24.21.0');
const OTHER = spawnSync(other, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
const dir = mkdtempSync(join(tmpdir(), 'arsession-runtimes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MODELS = [
  ['ifc', 'AC20-FZK-Haus.ifc'],
  ['ifc', 'duplex.ifc'],
  ['ifc', 'IfcOpenHouse_IFC4.ifc'],
  ['glb', 'DamagedHelmet.glb'],
  ['glb', 'AnisotropyBarnLamp-KTX2.glb'],
  ['usdz', 'three-CesiumMan.usdz'],
] as const;

/** The SHA-256 of the USDZ and GLB a runtime's CLI writes for a model. */
function convertOn(node: string, kind: string, name: string, tag: string): { usdz: string; glb: string } {
  const usdz = join(dir, `${tag}-${name}.usdz`),
    glb = join(dir, `${tag}-${name}.glb`);
  const r = spawnSync(node, [CLI, 'convert', corpusPath(kind as 'ifc', name), '-o', usdz, '--glb', glb, '--json'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(r.status, `${tag}: ${r.stdout}${r.stderr}`).toBe(0);
  const hash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
  return { usdz: hash(usdz), glb: hash(glb) };
}

describe(`the same model gives the same bytes on Node ${process.versions.node} and Node ${OTHER}`, () => {
  it.each(MODELS)('%s/%s: USDZ and GLB byte for byte', (kind, name) => {
    expect(convertOn(other, kind, name, OTHER)).toEqual(convertOn(process.execPath, kind, name, process.versions.node));
  });
});
