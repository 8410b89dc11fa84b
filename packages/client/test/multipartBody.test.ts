// What the client puts on the wire: forms with files as multipart (every field, every file, in
// order, names kept), everything else as JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { multipartBody, sessionIdOf } from '../src/index.js';

const text = fc.string({ maxLength: 40 });
const file = fc
  .tuple(fc.uint8Array({ maxLength: 64 }), fc.string({ minLength: 1, maxLength: 20 }))
  .map(([bytes, name]) => new File([bytes], name));

describe('multipartBody', () => {
  it('keeps every text field and every file of a form with a file in it, in order, each file under its name', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k !== 'model_files'),
          text,
        ),
        fc.array(file, { minLength: 1, maxLength: 4 }),
        async (fields, files) => {
          const form = multipartBody({ ...fields, model_files: files }) as FormData;
          expect(form).toBeInstanceOf(FormData);
          for (const [k, v] of Object.entries(fields)) expect(form.getAll(k)).toEqual([v]);
          const parts = form.getAll('model_files') as File[];
          expect(parts.map((p) => p.name)).toEqual(files.map((f) => f.name));
          for (const [i, p] of parts.entries())
            expect(new Uint8Array(await p.arrayBuffer())).toEqual(new Uint8Array(await files[i]!.arrayBuffer()));
        },
      ),
      { numRuns: 50 },
    );
  });

  it('sends a body that names no model (the claim) as JSON, and a FormData as it is', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((v) => typeof v !== 'object' || v === null || !('model_id' in v)),
        (value) => {
          expect(multipartBody(value)).toBe(JSON.stringify(value));
        },
      ),
    );
    const form = new FormData();
    expect(multipartBody(form)).toBe(form);
  });

  it('sends a value that is not text (a point, corners, a number, an object) as its JSON text, which the server parses back to it', () => {
    const json = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 4 }),
      fc.array(fc.array(fc.integer(), { minLength: 3, maxLength: 3 }), { minLength: 4, maxLength: 4 }),
      fc.record({ mode: fc.constant('auto') }),
    );
    fc.assert(
      fc.property(json, (value) => {
        const form = multipartBody({ model_file: new Blob([]), field: value }) as FormData;
        expect(JSON.parse(form.get('field') as string)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('sends a form that names a saved model by model_id as a form, though it carries no file', () => {
    const form = multipartBody({ model_id: 'a3c1', 'alignment.point_1': [1, 1.6, 2] }) as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect([...form.entries()]).toEqual([
      ['model_id', 'a3c1'],
      ['alignment.point_1', '[1,1.6,2]'],
    ]);
  });

  it('leaves out fields that are undefined, and names a bare Blob after its field', () => {
    const form = multipartBody({ model_file: new Blob([new Uint8Array([1])]), conversion: undefined }) as FormData;
    expect([...form.keys()]).toEqual(['model_file']);
    expect((form.get('model_file') as File).name).toBe('model_file');
  });
});

describe('sessionIdOf', () => {
  it('reads the id at the end of a deep link, and refuses anything else', () => {
    expect(sessionIdOf('arsession://session/3q2-7wEjS0mZ1T2V0X9dQg')).toBe('3q2-7wEjS0mZ1T2V0X9dQg');
    for (const bad of ['', 'arsession://session/', 'arsession://session/short', 'https://example.com/3q2-7wEjS0mZ1T2V0X9dQg?x'])
      expect(() => sessionIdOf(bad)).toThrow(/not an arsession deep link/);
  });
});
