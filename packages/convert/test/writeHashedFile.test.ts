import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { writeHashedFile, WRITE_CHUNK_BYTES } from '../src/io/writeHashedFile.js';

const dir = mkdtempSync(join(tmpdir(), 'arsession-hashed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeHashedFile', () => {
  it('writes every piece whole, in writes of at most its chunk size, and hashes what it wrote', () => {
    // Node refuses one write of 2 GiB; pieces are cut well below that.
    expect(WRITE_CHUNK_BYTES).toBeLessThan(2 ** 31);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uint8Array({ maxLength: 300 }), fc.nat()), { maxLength: 8 }),
        fc.integer({ min: 1, max: 64 }),
        (pieces, chunk) => {
          const path = join(dir, 'out.bin');
          const expected = Buffer.concat(pieces.map(([data, cut]) => data.subarray(0, data.length === 0 ? 0 : cut % (data.length + 1))));
          const written = writeHashedFile(
            path,
            (write) => {
              for (const [data, cut] of pieces) write(data, data.length === 0 ? 0 : cut % (data.length + 1));
            },
            chunk,
          );
          const file = readFileSync(path);
          expect(file.equals(expected)).toBe(true);
          expect(written).toEqual({ bytes: expected.length, sha256: createHash('sha256').update(expected).digest('hex') });
          // Written aside and renamed: nothing partial is left.
          expect(readdirSync(dir)).toEqual(['out.bin']);
        },
      ),
    );
  });
});
