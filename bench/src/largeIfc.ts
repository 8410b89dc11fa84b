import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Writes an IFC made of `copies` copies of a model's DATA section, entity ids shifted per copy, to
 * the OS temp folder (never the repository), and returns its path. web-ifc loads such files; they
 * show how time and memory grow with size on real BIM content.
 */
export function repeatedIfc(source: string, copies: number): string {
  const text = readFileSync(source, 'latin1');
  const start = text.indexOf('DATA;') + 'DATA;'.length;
  const end = text.indexOf('ENDSEC;', start);
  const data = text.slice(start, end);
  let maxId = 0;
  for (const m of data.matchAll(/#(\d+)/g)) maxId = Math.max(maxId, Number(m[1]));
  const parts = [text.slice(0, start)];
  for (let k = 0; k < copies; k++) parts.push(k === 0 ? data : data.replace(/#(\d+)/g, (_, id: string) => `#${Number(id) + k * maxId}`));
  parts.push(text.slice(end));
  const dir = join(tmpdir(), 'arsession-bench');
  mkdirSync(dir, { recursive: true });
  const path = join(
    dir,
    `${source
      .split('/')
      .pop()!
      .replace(/\.ifc$/i, '')}-x${copies}.ifc`,
  );
  writeFileSync(path, parts.join(''), 'latin1');
  return path;
}
