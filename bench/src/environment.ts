import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, totalmem, release, platform } from 'node:os';

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
  const require = createRequire(import.meta.url);
  const version = (name: string) => {
    try {
      return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
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
    versions: { 'web-ifc': version('web-ifc'), three: version('three'), '@arsession/convert': version('@arsession/convert') },
  };
}
