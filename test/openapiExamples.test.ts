// Every request example of the served OpenAPI document, sent as a reader would send it: its
// fields as written, its model files the public samples it names, against a real server. Each
// must answer 201 and place the model the way its summary says.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { filePart, getDetail, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';

interface Example {
  summary: string;
  description: string;
  value: Record<string, string>;
}
interface Operation {
  requestBody?: { content: Record<string, { examples?: Record<string, Example> }> };
}

let t: TestServer;
let doc: { paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  t = await startTestServer();
  doc = (await (await fetch(`${t.url}/api/vision/v1/openapi.json`)).json()) as typeof doc;
});
afterAll(() => t.stop());

/** The corpus file an example names: the public samples are in the corpus under their own names. */
function sample(name: string): string {
  const found = (['ifc', 'glb', 'usdz'] as const).map((kind) => corpusPath(kind, name)).find((p) => existsSync(p));
  if (!found) throw new Error(`an example names ${name}, which is not a corpus sample`);
  return found;
}

/** Every session endpoint's examples, as `[path, name, example]`. */
function sessionExamples(): Array<[string, string, Example]> {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops.post?.requestBody?.content['multipart/form-data']?.examples ?? {}).map(
      ([name, e]) => [path, name, e] as [string, string, Example],
    ),
  );
}

describe('the OpenAPI request examples', () => {
  it('every session endpoint has one; by_scan one for each mode', () => {
    const session = Object.keys(doc.paths).filter(
      (p) => p.startsWith('/api/vision/v1/session/') && p !== '/api/vision/v1/session/claim/' && !p.includes('{'),
    );
    expect(session).toHaveLength(7);
    const withExamples = new Set(sessionExamples().map(([path]) => path));
    expect([...withExamples].sort()).toEqual(session.sort());
    expect(
      sessionExamples()
        .filter(([path]) => path.endsWith('/by_scan/'))
        .map(([, name]) => name),
    ).toEqual(['detected', 'given']);
  });

  it('each, sent as written, answers 201, and places the model as its summary says', async () => {
    for (const [path, name, { value }] of sessionExamples()) {
      const form = new FormData();
      for (const [field, text] of Object.entries(value)) {
        if (field === 'model_file' || field === 'model_files') form.append(field, ...filePart(sample(text)));
        else if (field === 'reference_image') form.append(field, new Blob([ONE_PIXEL_PNG]), text);
        else form.append(field, text);
      }
      const res = await fetch(`${t.url}${path}`, { method: 'POST', body: form, headers: { 'X-API-Key': t.key } });
      const body = (await res.json()) as { deeplink: string };
      expect(res.status, `${path} ${name}: ${JSON.stringify(body)}`).toBe(201);
      const { body: detail } = await getDetail(t, sessionIdOf(body.deeplink));
      const method = path.split('/')[5]!;
      expect(detail.placement.method, `${path} ${name}`).toBe(method);
      if (method === 'by_scan') expect(detail.placement.found).toBe(name);
      // A sensible request draws no plausibility warning.
      expect(detail.placement.warnings, `${path} ${name}`).toEqual([]);
    }
  });
});
