import { readFileSync } from 'node:fs';
import { cpus, totalmem, release, platform } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR } from './corpus.js';

/** The machine and versions a result was measured with. */
export interface Environment {
  date: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  versions: Record<string, string>;
}

export function environment(): Environment {
  // Read package.json files directly: `exports` maps forbid resolving `name/package.json`.
  const version = (name: string, dir = join(BENCH_DIR, 'node_modules', name)) => {
    try {
      return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return 'not installed';
    }
  };
  return {
    date: new Date().toISOString(),
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()}`,
    node: process.version,
    versions: {
      'web-ifc': version('web-ifc'),
      three: version('three'),
      '@napi-rs/canvas': version('@napi-rs/canvas'),
      '@arsession/convert': version('@arsession/convert', join(BENCH_DIR, '..', 'packages', 'convert')),
    },
  };
}
