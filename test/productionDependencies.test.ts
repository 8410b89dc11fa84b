// What a production install of the command line or the server pulls in: the workspace packages
// it depends on and their own dependencies — never the benchmarks' tools (load generators, a
// canvas, other converters), which only `arsession bench` needs, from @arsession/bench.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/corpus.js';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const WORKSPACE: Record<string, string> = {
  '@arsession/geometry': 'packages/geometry',
  '@arsession/usd': 'packages/usd',
  '@arsession/convert': 'packages/convert',
  '@arsession/server': 'packages/server',
  '@arsession/cli': 'packages/cli',
  '@arsession/client': 'packages/client',
  '@arsession/bench': 'bench',
};
const manifest = (name: string) => JSON.parse(readFileSync(join(REPO_ROOT, WORKSPACE[name]!, 'package.json'), 'utf8')) as Manifest;

/** Every package a production install of `name` brings: its dependencies, through the workspace's own. */
function productionClosure(name: string, seen = new Set<string>()): Set<string> {
  for (const dep of Object.keys(manifest(name).dependencies ?? {})) {
    if (seen.has(dep)) continue;
    seen.add(dep);
    if (WORKSPACE[dep]) productionClosure(dep, seen);
  }
  return seen;
}

const BENCH_TOOLS = Object.keys(manifest('@arsession/bench').dependencies ?? {}).filter(
  (d) => !d.startsWith('@arsession/') && !productionClosure('@arsession/server').has(d),
);

describe('production dependencies', () => {
  it('the benchmarks bring tools nothing else needs', () => {
    expect(BENCH_TOOLS).toEqual(expect.arrayContaining(['autocannon', '@napi-rs/canvas', 'gltfpack', 'three-mesh-bvh']));
  });

  it.each(['@arsession/cli', '@arsession/server'])('%s installs none of them', (name) => {
    const closure = productionClosure(name);
    expect(closure.has('@arsession/bench')).toBe(false);
    expect(BENCH_TOOLS.filter((tool) => closure.has(tool))).toEqual([]);
  });

  it('arsession bench asks for the benchmarks as an optional peer', () => {
    expect(manifest('@arsession/cli').peerDependenciesMeta?.['@arsession/bench']?.optional).toBe(true);
  });
});
