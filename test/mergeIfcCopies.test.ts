import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readIfc } from '@arsession/convert';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeIfcCopies } from '../bench/src/ladder/mergeIfcCopies.js';
import { corpusBytes, corpusPath } from './support/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'arsession-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mergeIfcCopies (the scale ladder)', () => {
  it('makes one project of several copies, each on its own site, with every GlobalId once', async () => {
    const source = corpusPath('ifc', 'AC20-FZK-Haus.ifc');
    const merged = mergeIfcCopies(source, { copies: 4, spacing: 50, dir });
    const text = readFileSync(merged, 'latin1');
    expect(text.match(/=\s*IFCPROJECT\s*\(/gi)).toHaveLength(1);
    expect(text.match(/=\s*IFCSITE\s*\(/gi)).toHaveLength(4);
    const ids = [...text.matchAll(/^#\d+=\s*[A-Z0-9_]+\(\s*'([0-3][0-9A-Za-z_$]{21})'\s*,\s*(?:#\d+|\$)\s*,/gim)].map((m) => m[1]!);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(4 * 100);

    // web-ifc reads it: four times the triangles (within a few of its curves, which it tessellates
    // a little differently where a copy stands), side by side on a 2 × 2 grid 50 m apart.
    const one = await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'));
    const four = await readIfc(new Uint8Array(readFileSync(merged)));
    expect(Math.abs(four.stats.triangles - 4 * one.stats.triangles)).toBeLessThan(4 * one.stats.triangles * 0.001);
    expect(four.nodes.filter((n) => n.metadata.ifcClass === 'IfcBuildingStorey')).toHaveLength(
      4 * one.nodes.filter((n) => n.metadata.ifcClass === 'IfcBuildingStorey').length,
    );
    const size = (s: typeof one, k: number) => s.bounds.max[k]! - s.bounds.min[k]!;
    expect(size(four, 0)).toBeCloseTo(size(one, 0) + 50, 1);
    expect(size(four, 1)).toBeCloseTo(size(one, 1), 1);
    expect(size(four, 2)).toBeCloseTo(size(one, 2) + 50, 1);
  });
});
