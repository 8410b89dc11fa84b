import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The shared corpus, beside the repository (`../shared/corpus`, as CI lays it out). Tests never
 * skip when it is missing: a run without the corpus must fail, not pass vacuously.
 */
export const CORPUS_DIR = resolve(REPO_ROOT, '..', 'shared', 'corpus');
if (!existsSync(join(CORPUS_DIR, 'MANIFEST.md'))) {
  throw new Error(`the test corpus is missing: expected ${CORPUS_DIR}/MANIFEST.md (clone the repo beside shared/)`);
}

/** Absolute path of a corpus file, e.g. `corpusPath('glb', 'Box.glb')`. */
export function corpusPath(kind: 'ifc' | 'glb' | 'usdz', name: string): string {
  return join(CORPUS_DIR, kind, name);
}

/** Bytes of a corpus file: a fresh copy each call, so a test may corrupt it freely. */
export function corpusBytes(kind: 'ifc' | 'glb' | 'usdz', name: string): Uint8Array {
  return new Uint8Array(readFileSync(corpusPath(kind, name)));
}

/** Every file of one kind in the corpus, sorted. */
export function corpusFiles(kind: 'ifc' | 'glb' | 'usdz'): string[] {
  return readdirSync(join(CORPUS_DIR, kind))
    .filter((f) => !f.startsWith('.'))
    .sort();
}

/** Facts the manifest states for one corpus IFC file (read from MANIFEST.md, not restated in tests). */
export interface ManifestIfcFacts {
  schema: string;
  doors: number;
  openings: number;
  walls: number;
  triangles: number;
}

/** The IFC table of MANIFEST.md, by file name. Files whose row has no numbers (the ifczip) are left out. */
export function manifestIfcFacts(): Map<string, ManifestIfcFacts> {
  const text = readFileSync(join(CORPUS_DIR, 'MANIFEST.md'), 'utf8');
  const section = text.slice(text.indexOf('## IFC'), text.indexOf('## GLB'));
  const facts = new Map<string, ManifestIfcFacts>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    // | file | bytes | schema | IfcDoor | IfcOpeningElement | IfcWall(+StandardCase) | web-ifc triangles | source |
    if (cells.length < 9 || !/\.ifc$/.test(cells[1]!)) continue;
    const n = (s: string) => Number(s.replace(/,/g, ''));
    if (!Number.isFinite(n(cells[4]!))) continue;
    facts.set(cells[1]!, { schema: cells[3]!, doors: n(cells[4]!), openings: n(cells[5]!), walls: n(cells[6]!), triangles: n(cells[7]!) });
  }
  return facts;
}
