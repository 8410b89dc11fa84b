// Bad input to the form: the field readers and placement methods fuzzed directly, then the real
// server fuzzed over loopback. Never a 500, never an untyped error, never a leftover file.
import { mkdtempSync, rmSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  circleDirectionalFrame,
  cornerDirectionalFrame,
  GeometryValidationError,
  readViewerAndGaze,
  rectangleShortSideFrame,
  referenceImageFrame,
  segmentDirectionalFrame,
  validateOpening,
} from '@arsession/geometry';
import { CONVERTER_VERSION } from '@arsession/convert';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../packages/server/src/errors/ApiError.js';
import { enumField, numberField, pointsField, textField, vectorField } from '../packages/server/src/form/fieldValues.js';
import { readConversion } from '../packages/server/src/form/readConversion.js';
import { readModelUploads } from '../packages/server/src/form/readModelUploads.js';
import type { Form, UploadedFile } from '../packages/server/src/form/readMultipartForm.js';
import { byRefimage } from '../packages/server/src/placement/byRefimage.js';
import { byScan } from '../packages/server/src/placement/byScan.js';
import { byVirtualAnchor } from '../packages/server/src/placement/byVirtualAnchor.js';
import { corpusPath } from './support/corpus.js';
import { diskLeftovers } from './support/diskLeftovers.js';
import { hostileFieldText, isWellTyped, MAX_COORDINATE, type FieldKind } from './support/fieldValueArbitraries.js';
import { expectProblem } from './support/problemResponse.js';
import { form, postSession, startTestServer, type TestServer } from './support/serverHarness.js';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';

/** The text fields of each session endpoint and what each holds, as contract.md and interface-spec.md list them. */
const ENDPOINT_FIELDS: Record<string, Record<string, FieldKind>> = {
  by_plane: {},
  by_scan: {
    'alignment.point_1': 'vector',
    'alignment.point_2': 'vector',
    'alignment.corners': 'corners',
    'alignment.wall_normal': 'vector',
    'alignment.coordinate_system': 'up_axis',
  },
  'by_virtual_anchor/rectangle-short-side': {
    'virtual_anchor.center': 'vector',
    'virtual_anchor.width': 'number',
    'virtual_anchor.height': 'number',
    'virtual_anchor.plane_normal': 'vector',
    'virtual_anchor.short_side_direction': 'vector',
    'virtual_anchor.anchor_type': 'one_of:rectangle_short_side',
    'virtual_anchor.coordinate_system': 'up_axis',
  },
  'by_virtual_anchor/segment-directional': {
    'virtual_anchor.segment_point_1': 'vector',
    'virtual_anchor.segment_point_2': 'vector',
    'virtual_anchor.plane_normal': 'vector',
    'virtual_anchor.placement_source': 'one_of:model_surface',
    'virtual_anchor.anchor_type': 'one_of:segment_directional',
    'virtual_anchor.coordinate_system': 'up_axis',
  },
  'by_virtual_anchor/circle-directional': {
    'virtual_anchor.center': 'vector',
    'virtual_anchor.radius': 'number',
    'virtual_anchor.plane_normal': 'vector',
    'virtual_anchor.direction': 'vector',
    'virtual_anchor.anchor_type': 'one_of:circle_directional',
    'virtual_anchor.coordinate_system': 'up_axis',
  },
  'by_virtual_anchor/corner-directional': {
    'virtual_anchor.corner': 'vector',
    'virtual_anchor.edge_1_direction': 'vector',
    'virtual_anchor.edge_2_direction': 'vector',
    'virtual_anchor.plane_normal': 'vector',
    'virtual_anchor.anchor_type': 'one_of:corner_directional',
    'virtual_anchor.coordinate_system': 'up_axis',
  },
  by_refimage: {
    'reference_image.physical_width': 'number',
    'reference_image.center': 'vector',
    'reference_image.normal': 'vector',
    'reference_image.up': 'vector',
    'reference_image.coordinate_system': 'up_axis',
  },
};

/** A well-formed value of each kind, so a request can be valid except where the fuzzer says. */
const WELL_FORMED: Record<Exclude<FieldKind, `one_of:${string}`>, fc.Arbitrary<string>> = {
  vector: fc.constantFrom('[0, 1.6, 3]', '[0, 0, -1]', '[1, 0, 0]', '[0, 1, 0]', '[0.3, 0, 1]'),
  number: fc.constantFrom('0.5', '1', '0.21', '2'),
  corners: fc.constant('[[-0.45, 0, 0], [0.45, 0, 0], [0.45, 2.1, 0], [-0.45, 2.1, 0]]'),
  up_axis: fc.constantFrom('y-up', 'z-up'),
  text: fc.constantFrom('model_surface', 'circle-directional', 'rectangle-short-side', 'x'),
};

const wellFormed = (kind: FieldKind): fc.Arbitrary<string> =>
  kind.startsWith('one_of:') ? fc.constantFrom(...kind.slice('one_of:'.length).split('|')) : WELL_FORMED[kind as keyof typeof WELL_FORMED];

const BOX = readFileSync(corpusPath('glb', 'Box.glb'));

const formOf = (fields: Record<string, string>, files: UploadedFile[] = []): Form => ({ fields: new Map(Object.entries(fields)), files });

/** Runs a reader; an error it throws must be one of ours, carrying a code and the field at fault. */
function typedOutcome<T>(read: () => T): { value: T } | { error: ApiError | GeometryValidationError } {
  try {
    return { value: read() };
  } catch (err) {
    if (err instanceof ApiError) {
      expect(err.status).toBeGreaterThanOrEqual(400);
      expect(err.status).toBeLessThan(500);
      expect(err.errors.length).toBeGreaterThan(0);
      return { error: err };
    }
    if (err instanceof GeometryValidationError) {
      expect(err.field).toMatch(/\S/);
      return { error: err };
    }
    throw new Error(`an untyped ${(err as Error)?.constructor?.name} escaped: ${(err as Error)?.message}`, { cause: err });
  }
}

/** Every number anywhere in a value is finite: nothing NaN or infinite is ever accepted. */
function allFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>).every(Number.isFinite);
  if (Array.isArray(value)) return value.every(allFinite);
  if (value && typeof value === 'object') return Object.values(value).every(allFinite);
  return true;
}

describe('field readers: a valid value or a typed 400, decided by the value alone', () => {
  it('vectorField, numberField and pointsField accept exactly the well-typed values, and return them', () => {
    fc.assert(
      fc.property(hostileFieldText, (text) => {
        const f = formOf({ v: text });
        const vector = typedOutcome(() => vectorField(f, 'v', MAX_COORDINATE));
        expect('value' in vector).toBe(isWellTyped('vector', text));
        if ('value' in vector) expect(vector.value).toEqual(JSON.parse(text));
        else expect((vector.error as ApiError).errors[0]!.field).toBe('v');

        const number = typedOutcome(() => numberField(f, 'v', MAX_COORDINATE));
        expect('value' in number).toBe(isWellTyped('number', text));
        if ('value' in number) expect(number.value).toBe(JSON.parse(text));

        const points = typedOutcome(() => pointsField(f, 'v', 4, MAX_COORDINATE));
        expect('value' in points).toBe(isWellTyped('corners', text));
        if ('error' in points) expect((points.error as ApiError).errors[0]!.field).toBe('v');

        const axis = typedOutcome(() => enumField(f, 'v', ['y-up', 'z-up'] as const));
        expect('value' in axis).toBe(isWellTyped('up_axis', text));
        const plain = typedOutcome(() => textField(f, 'v'));
        expect('value' in plain).toBe(isWellTyped('text', text));
      }),
      { numRuns: 2000 },
    );
  });

  it('an absent field reads as absent, never as a value', () => {
    const f = formOf({});
    expect([
      vectorField(f, 'v', MAX_COORDINATE),
      numberField(f, 'v', MAX_COORDINATE),
      pointsField(f, 'v', 4, MAX_COORDINATE),
      enumField(f, 'v', ['a'] as const),
      textField(f, 'v'),
    ]).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('readConversion: only auto (or nothing) passes; everything else is a 400 naming a conversion field', () => {
    const key = fc.constantFrom(
      'conversion',
      'conversion.mode',
      'conversion.custom',
      'conversion.custom.decimation',
      'conversion.other',
      'conversion.',
    );
    fc.assert(
      fc.property(fc.dictionary(key, hostileFieldText, { maxKeys: 3 }), (fields) => {
        const outcome = typedOutcome(() => readConversion(formOf(fields)));
        const names = Object.keys(fields);
        const onlyAuto =
          names.every((n) => n === 'conversion.mode' && fields[n] === 'auto') ||
          (names.length === 1 && names[0] === 'conversion' && isAutoBlock(fields.conversion!));
        expect('value' in outcome, JSON.stringify(fields)).toBe(onlyAuto);
        if ('error' in outcome) {
          expect((outcome.error as ApiError).status).toBe(400);
          expect((outcome.error as ApiError).errors[0]!.field).toMatch(/^conversion/);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('readModelUploads: exactly one model_file or 1..max model_files, else a typed 400/413 naming the field', () => {
    const file = (field: string, i: number): UploadedFile =>
      ({ field, name: `m${i}.glb`, path: `/nonexistent/${i}`, bytes: 1, sha256: '' }) as UploadedFile;
    fc.assert(
      fc.property(fc.array(fc.constantFrom('model_file', 'model_files', 'reference_image', 'other'), { maxLength: 14 }), (fields) => {
        const files = fields.map(file);
        const outcome = typedOutcome(() => readModelUploads(formOf({}, files), 10));
        const single = fields.filter((f) => f === 'model_file').length,
          many = fields.filter((f) => f === 'model_files').length;
        const valid = (single === 1 && many === 0) || (single === 0 && many >= 1 && many <= 10);
        expect('value' in outcome).toBe(valid);
        if ('value' in outcome)
          expect(outcome.value.map((f) => f.field)).toEqual(fields.filter((f) => f === (single ? 'model_file' : 'model_files')));
        else expect((outcome.error as ApiError).errors[0]!.field).toMatch(/^model_files?$/);
      }),
      { numRuns: 1000 },
    );
  });
});

/** The fields each endpoint cannot do without (the contract: missing fields are a 400). */
const REQUIRED: Record<string, string[]> = {
  'by_virtual_anchor/rectangle-short-side': ['center', 'width', 'height', 'plane_normal', 'short_side_direction'].map(
    (f) => `virtual_anchor.${f}`,
  ),
  'by_virtual_anchor/segment-directional': ['segment_point_1', 'segment_point_2', 'plane_normal'].map((f) => `virtual_anchor.${f}`),
  'by_virtual_anchor/circle-directional': ['center', 'radius', 'plane_normal', 'direction'].map((f) => `virtual_anchor.${f}`),
  'by_virtual_anchor/corner-directional': ['corner', 'edge_1_direction', 'edge_2_direction', 'plane_normal'].map(
    (f) => `virtual_anchor.${f}`,
  ),
  by_refimage: ['physical_width', 'center', 'normal', 'up'].map((f) => `reference_image.${f}`),
};

describe('placement methods read any form into a finite input or a typed error', () => {
  let dir: string;
  let image: UploadedFile;
  let notImage: UploadedFile;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arsession-fuzz-'));
    writeFileSync(join(dir, 'image'), ONE_PIXEL_PNG);
    writeFileSync(join(dir, 'text'), 'not an image');
    image = { field: 'reference_image', name: 'i.png', path: join(dir, 'image'), bytes: ONE_PIXEL_PNG.length, sha256: '' } as UploadedFile;
    notImage = { field: 'reference_image', name: 't.png', path: join(dir, 'text'), bytes: 12, sha256: '' } as UploadedFile;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const methods = [byScan, ...byVirtualAnchor, byRefimage];
  for (const method of methods) {
    it(`${method.path}: well-typed fields give a finite input or a 422; ill-typed ones a 400 naming one of them`, () => {
      const kinds = ENDPOINT_FIELDS[method.path]!;
      const fieldValue = (kind: FieldKind) => fc.oneof(wellFormed(kind), wellFormed(kind), hostileFieldText);
      const fields = fc.record(Object.fromEntries(Object.entries(kinds).map(([name, kind]) => [name, fieldValue(kind)])), {
        requiredKeys: [],
      });
      fc.assert(
        fc.property(fields, fc.constantFrom(0, 1, 2, 3), (values, imagePick) => {
          const files = method === byRefimage ? [[image], [], [notImage], [image, image]][imagePick]! : [];
          const outcome = typedOutcome(() => method.read(formOf(values as Record<string, string>, files), MAX_COORDINATE));
          const illTyped = Object.entries(values as Record<string, string>)
            .filter(([name, text]) => !isWellTyped(kinds[name]!, text))
            .map(([name]) => name);
          // Absent required fields are a 400 of their own (listed before any value is judged).
          illTyped.push(...(REQUIRED[method.path] ?? []).filter((name) => !(name in (values as Record<string, string>))));
          if (imagePick !== 0 && method === byRefimage) illTyped.push('reference_image'); // missing, not an image, or two
          if ('value' in outcome) {
            expect(illTyped, `accepted ${JSON.stringify(values)}`).toEqual([]);
            if (method === byRefimage) expect(imagePick).toBe(0);
            expect(allFinite(outcome.value)).toBe(true);
          } else if (outcome.error instanceof ApiError && outcome.error.status === 400 && illTyped.length > 0) {
            expect(illTyped).toContain(outcome.error.errors[0]!.field);
          }
        }),
        { numRuns: 600 },
      );
    });
  }
});

describe('geometry validators take any JSON value', () => {
  const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
    fc.tuple(fc.double(), fc.double(), fc.double()),
    fc.array(fc.double(), { maxLength: 5 }),
    fc.constantFrom(NaN, Infinity, -Infinity, 1e308, -0, null, undefined, '1', [1, 2, '3'], [[1, 2, 3]], {}, new Float64Array([1, NaN, 2])),
    fc.anything(),
  );
  const corners = fc.oneof(fc.array(hostileValue, { maxLength: 5 }), hostileValue);
  const axis = fc.constantFrom('y-up', 'z-up') as fc.Arbitrary<'y-up' | 'z-up'>;

  it('validateOpening, readViewerAndGaze, the anchor frames and referenceImageFrame: finite output or GeometryValidationError', () => {
    fc.assert(
      fc.property(corners, hostileValue, hostileValue, hostileValue, hostileValue, axis, (c, a, b, d, e, system) => {
        const calls: Array<() => unknown> = [
          () => validateOpening({ corners: c as number[][], wallNormal: a as number[], coordinateSystem: system }),
          () => readViewerAndGaze(a, b, system),
          () =>
            rectangleShortSideFrame(
              {
                center: a as number[],
                width: b as number,
                height: d as number,
                planeNormal: e as number[],
                shortSideDirection: c as number[],
              },
              { coordinateSystem: system },
            ),
          () =>
            segmentDirectionalFrame(
              { segmentPoint1: a as number[], segmentPoint2: b as number[], planeNormal: d as number[], placementSource: e as string },
              { coordinateSystem: system },
            ),
          () =>
            circleDirectionalFrame(
              { center: a as number[], radius: b as number, planeNormal: d as number[], direction: e as number[] },
              { coordinateSystem: system },
            ),
          () =>
            cornerDirectionalFrame(
              { corner: a as number[], edge1Direction: b as number[], edge2Direction: d as number[], planeNormal: e as number[] },
              { coordinateSystem: system },
            ),
          () =>
            referenceImageFrame(
              { center: a as number[], normal: b as number[], up: d as number[], physicalWidth: e as number },
              { coordinateSystem: system },
            ),
        ];
        for (const call of calls) {
          const outcome = typedOutcome(call);
          if ('value' in outcome) expect(allFinite(outcome.value)).toBe(true);
          else expect(outcome.error).toBeInstanceOf(GeometryValidationError);
        }
      }),
      { numRuns: Number(process.env.HARDENING_RUNS ?? 1500) },
    );
  });
});

function isAutoBlock(text: string): boolean {
  try {
    const v = JSON.parse(text) as unknown;
    return (
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      Object.keys(v).every((k) => k === 'mode') &&
      ((v as { mode?: unknown }).mode ?? 'auto') === 'auto'
    );
  } catch {
    return false;
  }
}

describe('the real server, fuzzed over loopback', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ maxFiles: 3 });
  });
  afterAll(() => t.stop());

  const endpoint = fc.constantFrom(...Object.keys(ENDPOINT_FIELDS));

  it('random field values, omissions, duplicates and unknown fields: 201 or a 4xx naming a field at fault, never a 500', async () => {
    const request = endpoint.chain((path) => {
      const kinds = ENDPOINT_FIELDS[path]!;
      const value = (kind: FieldKind) => fc.oneof({ weight: 3, arbitrary: wellFormed(kind) }, { weight: 1, arbitrary: hostileFieldText });
      return fc.record({
        path: fc.constant(path),
        fields: fc.record(Object.fromEntries(Object.entries(kinds).map(([name, kind]) => [name, value(kind)])), { requiredKeys: [] }),
        duplicate: fc.option(fc.constantFrom(...Object.keys(kinds), 'model_file'), { nil: undefined }),
        unknown: fc.option(
          fc.constantFrom('alignment.point1', 'virtual_anchor.radiuss', 'x', 'conversion.custom', '__proto__', 'constructor'),
          { nil: undefined, freq: 6 },
        ),
        models: fc.constantFrom(1, 1, 1, 0, 2),
      });
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ path, fields, duplicate, unknown, models }) => {
        const fd = form(fields as Record<string, string>);
        for (let i = 0; i < models; i++) fd.append('model_file', new Blob([BOX]), 'Box.glb');
        if (path === 'by_refimage') fd.append('reference_image', new Blob([ONE_PIXEL_PNG]), 'ref.png');
        if (duplicate !== undefined && duplicate !== 'model_file') {
          const sent = (fields as Record<string, string>)[duplicate];
          for (let i = sent === undefined ? 0 : 1; i < 2; i++) fd.append(duplicate, sent ?? '[0, 0, 1]');
        }
        if (duplicate === 'model_file') fd.append('model_file', new Blob([BOX]), 'again.glb');
        if (unknown !== undefined) fd.append(unknown, '1');
        const r = await postSession(t, path, fd);

        // The form rules, judged here independently: what must be a 400, and which fields it may name.
        const kinds = ENDPOINT_FIELDS[path]!;
        const faults = Object.entries(fields as Record<string, string>)
          .filter(([name, text]) => !isWellTyped(kinds[name]!, text))
          .map(([name]) => name);
        const modelCount = models + (duplicate === 'model_file' ? 1 : 0);
        if (modelCount !== 1) faults.push('model_file');
        if (duplicate !== undefined && duplicate !== 'model_file') faults.push(duplicate);
        if (unknown !== undefined) faults.push(unknown);
        faults.push(...(REQUIRED[path] ?? []).filter((name) => !(name in (fields as Record<string, string>))));

        if (r.status === 201) {
          expect(faults, `201 despite ${JSON.stringify({ fields, duplicate, unknown, models })}`).toEqual([]);
          expect(r.body.deeplink).toMatch(/:\/\/session\//);
          return;
        }
        expectProblem(r, [400, 413, 415, 422]);
        if (faults.length > 0) {
          expect(r.status, JSON.stringify({ faults, body: r.body })).toBe(400);
          const named = (r.body.errors as Array<{ field: string }>).map((e) => e.field);
          expect(
            named.some((f) => faults.includes(f) || (f === 'conversion.custom' && faults.includes('conversion.custom'))),
            JSON.stringify({ faults, named }),
          ).toBe(true);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('unicode and path traversal in file names: the name is a label, never a path', async () => {
    const hostileName = fc.oneof(
      fc.constantFrom(
        '../../../escape-marker.glb',
        '..\\..\\escape-marker.glb',
        '/etc/escape-marker.glb',
        'C:\\escape-marker.glb',
        '....//escape-marker.glb',
        '%2e%2e%2fescape-marker.glb',
        'a\u0000b.glb',
        '\u202Egnp.glb',
        'дверь 🚪.glb',
        '..',
        '.',
        '',
        ' ',
        'a"b;c.glb',
        `${'x'.repeat(1000)}.glb`,
      ),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(hostileName, async (name) => {
        const fd = new FormData();
        fd.append('model_file', new Blob([BOX]), name);
        const r = await postSession(t, 'by_plane', fd);
        if (['', '.', '..'].includes(name.split(/[\\/]/).pop()!)) {
          // No base name is how a browser sends an empty file input: the part is no model at all.
          expectProblem(r, [400]);
          expect(r.body.errors[0].field).toBe('model_file');
          return;
        }
        // eslint-disable-next-line no-control-regex
        if (/[\u0000-\u0009\u000b\u000c\u000e-\u001f]/.test(name) && r.status === 400) {
          // A raw control byte in the part header makes the header itself malformed: refused as a body error.
          expectProblem(r, [400]);
          expect(r.body.errors[0].field).toBe('body');
          return;
        }
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        const id = String(r.body.deeplink).slice(String(r.body.deeplink).lastIndexOf('/') + 1);
        const detail = (await (await fetch(`${t.url}/api/vision/v1/session/${id}/`)).json()) as Record<string, any>;
        const usdzUrl = JSON.stringify(detail).match(/"(https?:[^"]+\.usdz)"/)?.[1];
        expect(usdzUrl, JSON.stringify(detail)).toBeDefined();
        const file = await fetch(usdzUrl!);
        await file.arrayBuffer();
        expect(file.status).toBe(200);
        const disposition = file.headers.get('content-disposition') ?? '';
        // The plain filename= fallback must be a bare, quoted ASCII name; no path separators anywhere.
        expect(disposition).toMatch(/^(inline|attachment); filename="[^"\\/]*"/);
        expect(decodeURIComponent(disposition.match(/filename\*=UTF-8''([^;]*)/)?.[1] ?? '')).not.toMatch(/[\\/]/);
      }),
      { numRuns: 40 },
    );
    for (const outside of [join(t.dataDir, '..', 'escape-marker.glb'), join(t.dataDir, 'escape-marker.glb'), '/etc/escape-marker.glb']) {
      expect(existsSync(outside), outside).toBe(false);
    }
  });

  it('thousands of parts are cut off while streaming with a 413 naming the limit', async () => {
    const manyFields = new FormData();
    manyFields.append('model_file', new Blob([BOX]), 'Box.glb');
    for (let i = 0; i < 3000; i++) manyFields.append(`virtual_anchor.f${i}`, '[0, 0, 0]');
    expectProblem(await postSession(t, 'by_virtual_anchor/circle-directional', manyFields), [413]);

    const manyFiles = new FormData();
    for (let i = 0; i < 2000; i++) manyFiles.append('model_files', new Blob([BOX]), `m${i}.glb`);
    const r = await postSession(t, 'by_plane', manyFiles);
    expectProblem(r, [413]);
    expect(r.body.errors[0].field).toMatch(/model_files|body/);

    const duplicates = new FormData();
    duplicates.append('model_file', new Blob([BOX]), 'Box.glb');
    for (let i = 0; i < 50; i++) duplicates.append('virtual_anchor.radius', '1');
    const d = await postSession(t, 'by_virtual_anchor/circle-directional', duplicates);
    expectProblem(d, [400]);
    expect(d.body.errors[0].field).toBe('virtual_anchor.radius');

    const longField = form({ model_file: [new Blob([BOX]), 'Box.glb'], 'virtual_anchor.center': `[${'1, '.repeat(100_000)}1]` });
    const l = await postSession(t, 'by_virtual_anchor/circle-directional', longField);
    expectProblem(l, [413]);
    expect(l.body.errors[0].field).toBe('virtual_anchor.center');
  });

  it('malformed multipart bodies are 400s, not crashes', async () => {
    const bodies: Array<[string, string | Uint8Array]> = [
      ['multipart/form-data; boundary=B', '--B\r\nContent-Disposition: form-data; name="model_file"; filename="a.glb"\r\n\r\nglTF'],
      ['multipart/form-data; boundary=B', '--B\r\nContent-Disposition: form-data\r\n\r\nx\r\n--B--\r\n'],
      ['multipart/form-data; boundary=B', '--B\r\nno headers at all\r\n--B--\r\n'],
      ['multipart/form-data; boundary=B', 'garbage without any boundary'],
      ['multipart/form-data', '--B\r\n\r\n--B--\r\n'],
      ['multipart/form-data; boundary=', ''],
      ['multipart/form-data; boundary=B', new Uint8Array(4096).fill(0xff)],
      ['multipart/form-data; boundary=B', `--B\r\nContent-Disposition: form-data; name="${'n'.repeat(5000)}"\r\n\r\nx\r\n--B--\r\n`],
    ];
    for (const [type, body] of bodies) {
      const res = await fetch(`${t.url}/api/vision/v1/session/by_plane/`, { method: 'POST', headers: { 'Content-Type': type }, body });
      const text = await res.text();
      expect(res.status, `${type} / ${String(body).slice(0, 80)}`).not.toBe(500);
      expectProblem({ status: res.status, body: JSON.parse(text) as Record<string, any>, headers: res.headers }, [400, 413]);
    }
  });

  it('afterwards: nothing left on disk that no session accounts for, and the server still answers', async () => {
    expect(await diskLeftovers(t)).toEqual([]);
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', version: CONVERTER_VERSION });
  });
});
