// Every error of contract.md against a real server: the status, application/problem+json, and the
// field at fault named in `errors`.
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { sessionOfEntry } from '@arsession/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';

const AC20 = corpusPath('ifc', 'AC20-FZK-Haus.ifc');
const BOX = corpusPath('glb', 'Box.glb');
const ANCHOR = {
  'virtual_anchor.center': '[0, 0, 0]',
  'virtual_anchor.radius': '0.5',
  'virtual_anchor.plane_normal': '[0, 1, 0]',
  'virtual_anchor.direction': '[1, 0, 0]',
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ maxFiles: 3, claimsPerClientPerMinute: 5 });
});
afterAll(() => t.stop());

/** Asserts a problem+json answer with this status and, first in `errors`, this field. */
function expectProblem(
  r: { status: number; body: Record<string, any>; headers: Headers },
  status: number,
  field: string,
  code?: string,
): void {
  expect({ status: r.status, field: r.body.errors?.[0]?.field }).toEqual({ status, field });
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({
    status,
    type: expect.stringMatching(/^urn:arsession:problem:/),
    title: expect.any(String),
    detail: expect.any(String),
  });
  if (code) expect(r.body.code).toBe(code);
}

const anchorWithBox = (extra: Record<string, string | [Blob, string] | Array<[Blob, string]>> = {}) =>
  form({ model_file: filePart(BOX), ...ANCHOR, ...extra });

describe('400: the form breaks a rule', () => {
  it('conversion.custom (dotted, with decimation) is refused as the spec says', async () => {
    expectProblem(
      await postSession(
        t,
        'by_plane',
        form({ model_file: filePart(BOX), 'conversion.mode': 'custom', 'conversion.custom.decimation': '{}' }),
      ),
      400,
      'conversion.custom',
      'conversion_custom_unsupported',
    );
    // Only the mode sent: the mode is named, never a field that was not sent.
    expectProblem(
      await postSession(t, 'by_plane', form({ model_file: filePart(BOX), 'conversion.mode': 'custom' })),
      400,
      'conversion.mode',
      'conversion_custom_unsupported',
    );
  });
  it('conversion as one JSON field with custom', async () => {
    expectProblem(
      await postSession(
        t,
        'by_scan',
        form({
          model_file: filePart(BOX),
          conversion: '{"mode":"custom","custom":{"decimation":{}}}',
          'alignment.point_1': '[0,1.6,3]',
          'alignment.point_2': '[0,0,-1]',
        }),
      ),
      400,
      'conversion.custom',
    );
  });
  it('model_file and model_files together', async () => {
    expectProblem(
      await postSession(t, 'by_plane', form({ model_file: filePart(BOX), model_files: [filePart(BOX)] })),
      400,
      'model_file',
      'mutually_exclusive',
    );
  });
  it('no model at all', async () => {
    expectProblem(await postSession(t, 'by_virtual_anchor/circle-directional', form(ANCHOR)), 400, 'model_file', 'missing_field');
  });
  it('missing anchor or reference-image fields: one 400 listing every one of them', async () => {
    const r = await postSession(
      t,
      'by_virtual_anchor/corner-directional',
      form({ model_file: filePart(BOX), 'virtual_anchor.corner': '[0,0,0]' }),
    );
    expectProblem(r, 400, 'virtual_anchor.edge_1_direction', 'missing_field');
    expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'virtual_anchor.edge_1_direction',
      'virtual_anchor.edge_2_direction',
      'virtual_anchor.plane_normal',
    ]);
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0,
    ]);
    const refimage = await postSession(
      t,
      'by_refimage',
      form({ model_file: filePart(BOX), reference_image: [new Blob([png]), 'marker.png'], 'reference_image.physical_width': '0.2' }),
    );
    expectProblem(refimage, 400, 'reference_image.center', 'missing_field');
    expect(refimage.body.errors).toHaveLength(3);
  });
  it.each([
    ['circle-directional', 'circle_directional', ANCHOR],
    [
      'rectangle-short-side',
      'rectangle_short_side',
      {
        'virtual_anchor.center': '[1, 0, 2]',
        'virtual_anchor.width': '0.6',
        'virtual_anchor.height': '1.2',
        'virtual_anchor.plane_normal': '[0, 1, 0]',
        'virtual_anchor.short_side_direction': '[1, 0, 0]',
      },
    ],
    [
      'segment-directional',
      'segment_directional',
      {
        'virtual_anchor.segment_point_1': '[0, 0, 0]',
        'virtual_anchor.segment_point_2': '[2, 0, 1]',
        'virtual_anchor.plane_normal': '[0, 1, 0]',
      },
    ],
    [
      'corner-directional',
      'corner_directional',
      {
        'virtual_anchor.corner': '[3, 0, -1]',
        'virtual_anchor.edge_1_direction': '[1, 0, 0]',
        'virtual_anchor.edge_2_direction': '[0, 0, 1]',
        'virtual_anchor.plane_normal': '[0, 1, 0]',
      },
    ],
  ] as const)(
    '%s: an anchor_type naming another kind is a wrong form value, naming the one the endpoint takes',
    async (path, kind, fields) => {
      const other = kind === 'segment_directional' ? 'corner_directional' : 'segment_directional';
      const r = await postSession(
        t,
        `by_virtual_anchor/${path}`,
        form({ model_file: filePart(BOX), ...fields, 'virtual_anchor.anchor_type': other }),
      );
      expectProblem(r, 400, 'virtual_anchor.anchor_type', 'unknown_value');
      expect(r.body.errors[0].message).toContain(kind);
      expect(r.body.errors[0].message).toContain(other);
      // The endpoint's own kind is accepted, as is leaving the field out.
      expect(
        (
          await postSession(
            t,
            `by_virtual_anchor/${path}`,
            form({ model_file: filePart(BOX), ...fields, 'virtual_anchor.anchor_type': kind }),
          )
        ).status,
      ).toBe(201);
    },
  );
  it('a malformed JSON array', async () => {
    expectProblem(
      await postSession(t, 'by_scan', form({ model_file: filePart(BOX), 'alignment.point_1': '[0, 1.6', 'alignment.point_2': '[0,0,-1]' })),
      400,
      'alignment.point_1',
      'malformed_json',
    );
  });
  it('a vector of the wrong length, and a number too large to be finite', async () => {
    expectProblem(
      await postSession(
        t,
        'by_scan',
        form({ model_file: filePart(BOX), 'alignment.point_1': '[0, 1.6]', 'alignment.point_2': '[0,0,-1]' }),
      ),
      400,
      'alignment.point_1',
      'wrong_type',
    );
    expectProblem(
      await postSession(t, 'by_virtual_anchor/circle-directional', anchorWithBox({ 'virtual_anchor.radius': '1e999' })),
      400,
      'virtual_anchor.radius',
      'wrong_type',
    );
  });
  it('both alignment modes at once', async () => {
    expectProblem(
      await postSession(
        t,
        'by_scan',
        form({
          model_file: filePart(BOX),
          'alignment.point_1': '[0,1.6,3]',
          'alignment.point_2': '[0,0,-1]',
          'alignment.corners': '[[0,0,0],[1,0,0],[1,2,0],[0,2,0]]',
          'alignment.wall_normal': '[0,0,1]',
        }),
      ),
      400,
      'alignment.corners',
      'mutually_exclusive',
    );
  });
  it('no alignment on by_scan', async () => {
    expectProblem(await postSession(t, 'by_scan', form({ model_file: filePart(BOX) })), 400, 'alignment', 'missing_field');
  });
  it('an unknown field (a typo is not ignored)', async () => {
    expectProblem(
      await postSession(t, 'by_virtual_anchor/circle-directional', anchorWithBox({ 'virtual_anchor.radiuss': '1' })),
      400,
      'virtual_anchor.radiuss',
      'unknown_field',
    );
  });
  it('a field sent twice', async () => {
    const fd = anchorWithBox();
    fd.append('virtual_anchor.radius', '2');
    expectProblem(await postSession(t, 'by_virtual_anchor/circle-directional', fd), 400, 'virtual_anchor.radius', 'duplicate_field');
  });
  it('a file in a field that takes none', async () => {
    expectProblem(
      await postSession(t, 'by_plane', form({ model_file: filePart(BOX), 'alignment.corners': filePart(BOX) })),
      400,
      'alignment.corners',
      'unexpected_file',
    );
    // A file under another name is told the names files go by.
    const misnamed = await postSession(t, 'by_plane', form({ file: filePart(BOX) }));
    expectProblem(misnamed, 400, 'file', 'unexpected_file');
    expect(misnamed.body.detail).toContain('it takes files as "model_file", "model_files"');
    // A file field sent as text (curl -F model_file=path, without the @) is told about the @.
    const asText = await postSession(t, 'by_plane', form({ model_file: 'house.ifc' }));
    expectProblem(asText, 400, 'model_file', 'file_sent_as_text');
    expect(asText.body.detail).toContain('-F model_file=@path/to/file');
  });
  it('a body that is not multipart', async () => {
    const res = await fetch(`${t.url}/api/vision/v1/session/by_plane/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expectProblem(
      { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers },
      400,
      'Content-Type',
      'not_multipart',
    );
  });
  it('a truncated multipart body', async () => {
    const res = await fetch(`${t.url}/api/vision/v1/session/by_plane/`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
      body: '--XyZ\r\nContent-Disposition: form-data; name="model_file"; filename="a.glb"\r\n\r\nglTF',
    });
    expectProblem(
      { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers },
      400,
      'body',
      'invalid_multipart',
    );
  });
});

describe('401: keys', () => {
  it('missing where required (every endpoint but by_plane)', async () => {
    const r = await postSession(t, 'by_virtual_anchor/circle-directional', anchorWithBox(), null);
    expectProblem(r, 401, 'X-API-Key', 'api_key_missing');
    expect(r.headers.get('www-authenticate')).toMatch(/X-API-Key/);
  });
  it('invalid, even on by_plane (never quietly anonymous)', async () => {
    expectProblem(
      await postSession(
        t,
        'by_plane',
        form({ model_file: filePart(BOX) }),
        'ars_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      ),
      401,
      'X-API-Key',
      'api_key_invalid',
    );
    expectProblem(await postSession(t, 'by_plane', form({ model_file: filePart(BOX) }), 'not-a-key'), 401, 'X-API-Key', 'api_key_invalid');
  });
  it('the saved-models list needs a key', async () => {
    const res = await fetch(`${t.url}/api/vision/v1/models/`);
    expectProblem({ status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers }, 401, 'X-API-Key');
  });
});

describe('400: values no client would send', () => {
  it('an array nested 32,000 deep where a point belongs is refused naming the field, never a 500', async () => {
    const deep = `${'['.repeat(32_000)}${']'.repeat(32_000)}`;
    const r = await postSession(
      t,
      'by_scan',
      form({ model_file: filePart(AC20), 'alignment.point_1': deep, 'alignment.point_2': '[0, 0, -1]' }),
    );
    expectProblem(r, 400, 'alignment.point_1', 'wrong_type');
    // Quoted as sent, cut short: never re-serialised (which would recurse as deep).
    expect(r.body.detail).toContain(`"${'['.repeat(57)}..."`);
  });

  it('a coordinate beyond the sanity range is refused naming the field and the limit, so no pose ever holds null', async () => {
    const huge = await postSession(t, 'by_virtual_anchor/circle-directional', anchorWithBox({ 'virtual_anchor.center': '[1e300, 0, 0]' }));
    expectProblem(huge, 400, 'virtual_anchor.center', 'out_of_range');
    expect(huge.body.detail).toMatch(/±100000000 \(ARSESSION_MAX_COORDINATE_M\); got "\[1e300, 0, 0\]"/);
    const corners = '[[1e300, 0, 0], [1e300, 0, 1], [1e300, 2, 1], [1e300, 2, 0]]';
    expectProblem(
      await postSession(
        t,
        'by_scan',
        form({ model_file: filePart(AC20), 'alignment.corners': corners, 'alignment.wall_normal': '[1, 0, 0]' }),
      ),
      400,
      'alignment.corners',
      'out_of_range',
    );
    const width = await postSession(t, 'by_virtual_anchor/circle-directional', anchorWithBox({ 'virtual_anchor.radius': '-2e9' }));
    expectProblem(width, 400, 'virtual_anchor.radius', 'out_of_range');
    // Within the range, as large as a georeferenced model's coordinates: the pose is numbers.
    const far = await postSession(
      t,
      'by_virtual_anchor/circle-directional',
      anchorWithBox({ 'virtual_anchor.center': '[4.5e6, 0, 5.2e6]' }),
    );
    expect(far.status).toBe(201);
    const matrix = (await getDetail(t, sessionIdOf(far.body.deeplink))).body.placement.pose.matrix as unknown[];
    expect(matrix.every((x) => typeof x === 'number' && Number.isFinite(x))).toBe(true);
  });

  it('a number beyond a double is quoted as it was sent, never as null', async () => {
    const r = await postSession(t, 'by_virtual_anchor/circle-directional', anchorWithBox({ 'virtual_anchor.center': '[1e400, 0, 0]' }));
    expectProblem(r, 400, 'virtual_anchor.center', 'wrong_type');
    expect(r.body.detail).toContain('"[1e400, 0, 0]"');
    expect(r.body.detail).not.toContain('null');
  });

  it("the sanity range is the operator's: ARSESSION_MAX_COORDINATE_M", async () => {
    const tight = await startTestServer({ maxCoordinateMetres: 1000 });
    try {
      const r = await postSession(
        tight,
        'by_virtual_anchor/circle-directional',
        form({ model_file: filePart(BOX), ...ANCHOR, 'virtual_anchor.center': '[0, 0, 2000]' }),
      );
      expectProblem(r, 400, 'virtual_anchor.center', 'out_of_range');
      expect(r.body.detail).toContain('±1000');
    } finally {
      await tight.stop();
    }
  });
});

describe('names that are markup', () => {
  it('a file name full of markup is shown on the session page as text, never as markup', async () => {
    // No slash: a name is cut to its base name.
    const name = `<img src=x onerror="alert(1)">&<b onclick='alert(2)'>.glb`;
    const r = await postSession(t, 'by_plane', form({ model_file: filePart(BOX, name) }));
    expect(r.status).toBe(201);
    const id = sessionIdOf(r.body.deeplink);
    expect((await getDetail(t, id)).body.model_assets[0].source_name).toBe(name);
    const res = await fetch(`${t.url}/s/${id}`);
    // Were anything to slip through, no inline script would run.
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'( 'wasm-unsafe-eval')?;/);
    const page = await res.text();
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<b onclick');
    // As text, every markup character a character reference.
    expect(page).toContain('<h3>&#60;img src=x onerror=&#34;alert(1)&#34;&#62;&#38;&#60;b onclick=&#39;alert(2)&#39;&#62;.glb</h3>');
  });
});

describe('404', () => {
  const get = async (path: string) => {
    const res = await fetch(`${t.url}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
  };
  it('unknown session, unknown file, unknown endpoint', async () => {
    expectProblem(await get('/api/vision/v1/session/AAAAAAAAAAAAAAAAAAAAAA/'), 404, 'session_id', 'session_not_found');
    const r = await postSession(t, 'by_plane', form({ model_file: filePart(BOX) }), null);
    expectProblem(await get(`/api/vision/v1/session/${sessionIdOf(r.body.deeplink)}/files/1.usdz`), 404, 'name', 'file_not_found');
    expectProblem(await get('/api/vision/v1/nothing'), 404, 'path', 'not_found');
  });
  it('a mistyped endpoint is pointed at the one it most likely meant', async () => {
    const r = await fetch(`${t.url}/api/vision/v1/session/by_virtual_anchor/rectangle_short_side/`, { method: 'POST' });
    const body = (await r.json()) as Record<string, any>;
    expectProblem({ status: r.status, body, headers: r.headers }, 404, 'path', 'not_found');
    expect(body.detail).toContain('did you mean /api/vision/v1/session/by_virtual_anchor/rectangle-short-side/?');
    expect((await get('/api/vision/v1/nothing')).body.detail).not.toContain('did you mean');
  });
  it('a session endpoint asked with GET says it takes POST (405), never that no such session exists', async () => {
    for (const path of ['/api/vision/v1/session/by_plane/', '/api/vision/v1/session/by_plane', '/api/vision/v1/session/claim/']) {
      const r = await get(path);
      expectProblem(r, 405, 'method', 'method_not_allowed');
      expect(r.headers.get('allow')).toBe('POST');
    }
  });
  it('a page asset named like a property every object has is not found, never a 500', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])
      expectProblem(await get(`/s/assets/${name}`), 404, 'name', 'not_found');
  });
});

describe('413: over a limit', () => {
  it('more model files than allowed', async () => {
    expectProblem(
      await postSession(t, 'by_plane', form({ model_files: [filePart(BOX), filePart(BOX), filePart(BOX), filePart(BOX)] }), null),
      413,
      'model_files',
    );
  });
  it('a chunked upload over the limit hears 413 at the limit, before it has finished sending', async () => {
    const small = await startTestServer({ maxFileBytes: 50_000 });
    try {
      const { port } = new URL(small.url);
      const upload = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/vision/v1/session/by_plane/',
        headers: { 'Content-Type': 'multipart/form-data; boundary=B' },
      });
      upload.on('error', () => {});
      const answered = new Promise<{ status: number; body: string }>((resolve) =>
        upload.on('response', (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        }),
      );
      upload.write('--B\r\nContent-Disposition: form-data; name="model_file"; filename="big.glb"\r\n\r\n');
      upload.write(Buffer.alloc(60_000, 1));
      // The body never ends: only an answer at the limit can arrive.
      const r = await Promise.race([answered, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000))]);
      upload.destroy();
      expect(r?.status).toBe(413);
      expect(JSON.parse(r!.body)).toMatchObject({ code: 'file_too_large', errors: [{ field: 'model_file' }] });
      // The message says which file and what the limit is, and which setting makes it.
      expect(JSON.parse(r!.body).detail).toBe(
        'model_file "big.glb" is over the limit of 50000 bytes (ARSESSION_MAX_FILE_MB=0.0477) per file',
      );
    } finally {
      await small.stop();
    }
  });
  it('a file over the size limit, cut off while streaming', async () => {
    const small = await startTestServer({ maxFileBytes: 50_000 });
    try {
      expectProblem(await postSession(small, 'by_plane', form({ model_file: filePart(AC20) }), null), 413, 'model_file', 'file_too_large');
      expect(readFileSync(AC20).length).toBeGreaterThan(50_000);
    } finally {
      await small.stop();
    }
  });
});

describe('415: not a model', () => {
  it('text, and an image sent as a model', async () => {
    expectProblem(
      await postSession(t, 'by_plane', form({ model_file: [new Blob(['hello, this is not a model']), 'model.ifc'] }), null),
      415,
      'model_file',
      'unsupported_format',
    );
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const r = await postSession(
      t,
      'by_virtual_anchor/circle-directional',
      form({ ...ANCHOR, model_files: [filePart(BOX), [new Blob([png]), 'x.glb']] }),
    );
    expectProblem(r, 415, 'model_files');
    expect(r.body.file).toBe('x.glb');
  });
});

describe('422: readable but unusable', () => {
  it('a GLB over 5000 mesh nodes names the file and its count; 5000 passes', async () => {
    const r = await postSession(
      t,
      'by_virtual_anchor/circle-directional',
      anchorWithBox({ model_file: filePart(corpusPath('glb', 'Synthetic_5001MeshNodes_shared.glb')) }),
    );
    expectProblem(r, 422, 'model_file', 'mesh_node_limit');
    expect(r.body.detail).toMatch(/Synthetic_5001MeshNodes_shared\.glb has 5001 mesh nodes/);
    const ok = await postSession(
      t,
      'by_virtual_anchor/circle-directional',
      anchorWithBox({ model_file: filePart(corpusPath('glb', 'Synthetic_5000MeshNodes_shared.glb')) }),
    );
    expect(ok.status).toBe(201);
  });
  it('corners in the wrong order for the normal', async () => {
    const r = await postSession(
      t,
      'by_scan',
      form({
        model_file: filePart(BOX),
        'alignment.corners': '[[0.45,0,0],[-0.45,0,0],[-0.45,2.1,0],[0.45,2.1,0]]',
        'alignment.wall_normal': '[0,0,1]',
      }),
    );
    expectProblem(r, 422, 'alignment.corners', 'invalid_opening');
  });
  it('a degenerate vector (zero normal, zero gaze)', async () => {
    expectProblem(
      await postSession(t, 'by_virtual_anchor/circle-directional', anchorWithBox({ 'virtual_anchor.plane_normal': '[0,0,0]' })),
      422,
      'virtual_anchor.plane_normal',
      'invalid_anchor',
    );
    expectProblem(
      await postSession(
        t,
        'by_scan',
        form({ model_file: filePart(BOX), 'alignment.point_1': '[0,1.6,3]', 'alignment.point_2': '[0,0,0]' }),
      ),
      422,
      'alignment.point_2',
    );
  });
  it('a reference image whose up is its normal is called an invalid reference image, not a virtual anchor', async () => {
    const image = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0,
    ]);
    const r = await postSession(
      t,
      'by_refimage',
      form({
        model_file: filePart(BOX),
        reference_image: [new Blob([image]), 'marker.png'],
        'reference_image.physical_width': '0.2',
        'reference_image.center': '[0, 1, 0]',
        'reference_image.normal': '[0, 0, 1]',
        'reference_image.up': '[0, 0, 1]',
      }),
    );
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/^Invalid reference image: reference_image\./);
  });
  it('no door where the user looks: the reason says what to change', async () => {
    const r = await postSession(
      t,
      'by_scan',
      form({ model_file: filePart(AC20), 'alignment.point_1': '[0, 1.6, 40]', 'alignment.point_2': '[0, 0, 1]' }),
    );
    expectProblem(r, 422, 'alignment.point_2', 'door_not_found');
    expect(r.body.reason).toMatch(/^no_/);
  });
  it(
    'no door found says what a newcomer most likely got wrong: Z-up ' + 'numbers sent as Y-up, and where numbers that work come from',
    async () => {
      // Innentuer-1 as a BIM tool shows it (Z-up), sent without alignment.coordinate_system.
      const r = await postSession(
        t,
        'by_scan',
        form({ model_file: filePart(AC20), 'alignment.point_1': '[9.65, 5, 1.6]', 'alignment.point_2': '[-2, 0, -0.595]' }),
      );
      expectProblem(r, 422, 'alignment.point_2', 'door_not_found');
      expect(r.body.detail).toMatch(/send alignment\.coordinate_system=z-up/);
      expect(r.body.detail).toMatch(/arsession inspect --json/);
    },
  );
  it('no door found in the first of several models says only the first is searched', async () => {
    const r = await postSession(
      t,
      'by_scan',
      form({
        model_files: [filePart(BOX), filePart(AC20)],
        'alignment.point_1': '[9.65, 1.6, -5]',
        'alignment.point_2': '[-2, -0.595, 0]',
      }),
    );
    expectProblem(r, 422, 'alignment.point_2', 'door_not_found');
    expect(r.body.detail).toMatch(/only the first model is searched for the door \(Box\.glb\): send the building first/);
  });
  it('a model that cannot be parsed (truncated GLB), and one with nothing to show', async () => {
    const truncated = readFileSync(BOX).subarray(0, 700);
    expectProblem(
      await postSession(t, 'by_plane', form({ model_file: [new Blob([truncated]), 'cut.glb'] }), null),
      422,
      'model_file',
      'model_unreadable',
    );
    expectProblem(
      await postSession(t, 'by_plane', form({ model_file: filePart(corpusPath('usdz', 'single_usda.usdz')) }), null),
      422,
      'model_file',
      'model_unreadable',
    );
  });
  it('a USDZ breaking an ARKit package rule names the rule', async () => {
    const r = await postSession(t, 'by_plane', form({ model_file: filePart(corpusPath('usdz', 'bad_refAbc.usdz')) }), null);
    expectProblem(r, 422, 'model_file', 'usdz_package_invalid');
    expect(r.body.detail).toMatch(/Alembic/);
  });
});

describe('429: one-time-code guessing is throttled', () => {
  it('after the per-client budget, with Retry-After', async () => {
    const claim = () =>
      fetch(`${t.url}/api/vision/v1/session/claim/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ onetime_code: '000000000000' }),
      });
    // The budget counts per clock minute: claims that straddle a minute's end are counted in two
    // budgets, so such a run is made again within the next minute.
    const minute = () => Math.floor(Date.now() / 60_000);
    let statuses: number[] = [];
    let res: Response;
    for (let run = 0; ; run++) {
      const started = minute();
      statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await claim()).status);
      res = await claim();
      if (minute() === started || run === 2) break;
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expectProblem(
      { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers },
      429,
      'onetime_code',
      'too_many_claims',
    );
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('503: saturated', () => {
  it('answers at once with Retry-After while every slot is taken, and serves again after', async () => {
    const busy = await startTestServer({ workers: 1, queue: 0 });
    try {
      // A request whose body has arrived, converting a model of some seconds, holds the only slot
      // (one whose body is still arriving holds none: see the slow-client tests).
      const converting = postSession(
        busy,
        'by_plane',
        form({ model_file: filePart(corpusPath('ifc', 'ISSUE_021_Mini_Project.ifc')) }),
        null,
      );
      const inFlight = async () => ((await (await fetch(`${busy.url}/readyz`)).json()) as { in_flight: number }).in_flight;
      for (let i = 0; i < 200 && (await inFlight()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
      const r = await postSession(busy, 'by_plane', form({ model_file: filePart(BOX) }), null);
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('5');
      expect(r.body.code).toBe('saturated');
      // A request the key already refuses hears 401, not 503: it never competes for a slot.
      expect(
        (await postSession(busy, 'by_virtual_anchor/circle-directional', form({ model_file: filePart(BOX), ...ANCHOR }), null)).status,
      ).toBe(401);
      expect((await converting).status).toBe(201);
      expect((await postSession(busy, 'by_plane', form({ model_file: filePart(BOX) }), null)).status).toBe(201);
    } finally {
      await busy.stop();
    }
  });
});

describe('failures leave nothing behind', () => {
  it('after every refusal above, no upload or half-made session remains on disk', async () => {
    const { readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    expect(readdirSync(join(t.dataDir, 'uploads'))).toEqual([]);
    // Every session file left is one of a session that answered 201: its detail is served.
    for (const id of new Set(readdirSync(join(t.dataDir, 'sessions')).map(sessionOfEntry)))
      expect((await getDetail(t, id)).status, id).toBe(200);
  });
});
