import { gzipSync } from 'node:zlib';
import { writeHashedFile } from '../io/writeHashedFile.js';
import type { ElementRecord, ElementRecords } from './ElementRecord.js';

/**
 * Writes a model's element records to `path` as gzipped JSON (`ElementRecords`, by id), the
 * file a session serves them from and an app downloads to answer taps offline; returns its size,
 * SHA-256 and how many elements it holds. The same records give the same bytes.
 *
 * @example
 * ```ts
 * const { sha256, count } = writeElementRecords(scene.elementRecords!, 'IFC4', 'house.elements.json.gz');
 * ```
 */
export function writeElementRecords(
  records: readonly ElementRecord[],
  schema: string,
  path: string,
): { bytes: number; sha256: string; count: number } {
  // No prototype: a hostile file may name an element `__proto__`.
  const elements = Object.create(null) as ElementRecords['elements'];
  for (const record of records) if (record.id && !Object.hasOwn(elements, record.id)) elements[record.id] = record;
  const body: ElementRecords = { schema, elements };
  // A fixed gzip header (no name, no time): the same records, the same file.
  const gzipped = gzipSync(JSON.stringify(body), { level: 9 });
  const written = writeHashedFile(path, (write) => write(gzipped));
  return { ...written, count: Object.keys(elements).length };
}
