// Every answer a test receives through fetch is checked against the OpenAPI document the server
// serves: a status the operation lists, a content type it lists for that status, and a JSON body
// its schema accepts. The schemas are closed, so a field the server sends and the document does
// not describe fails whichever test happened to receive it. Registered as a vitest setup file.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openapiDocument } from '@arsession/server';

type Json = Record<string, any>;

/** An answer that breaks the document: which request, which status, and what was wrong. */
export class ResponseContractError extends Error {
  constructor(request: string, status: number, problem: string) {
    super(`response contract: ${request} answered ${status}: ${problem}`);
    this.name = 'ResponseContractError';
  }
}

interface Operation {
  template: string;
  pattern: RegExp;
  method: string;
  responses: Json;
}

const DOC: Json = openapiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats ships CommonJS: under ESM the plugin is the default export's own `default`.
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const formats = addFormatsModule as unknown as FormatsPlugin | { default: FormatsPlugin };
(typeof formats === 'function' ? formats : formats.default)(ajv);
ajv.addSchema({ $id: 'openapi', components: DOC.components }, 'openapi');

// Every path answers with and without its trailing slash, so both forms match.
const OPERATIONS: Operation[] = Object.entries(DOC.paths as Json).flatMap(([template, ops]) =>
  Object.entries(ops as Json).map(([method, op]) => ({
    template,
    method: method.toUpperCase(),
    responses: (op as Json).responses as Json,
    pattern: new RegExp(
      `^${template
        .replace(/\/$/, '')
        .replace(/[.]/g, '\\.')
        .replace(/\{[^}]+\}/g, '[^/]+')}/?$`,
    ),
  })),
);

const validators = new Map<string, ValidateFunction>();
function validatorFor(pointer: string, schema: Json): ValidateFunction {
  let v = validators.get(pointer);
  if (!v) {
    // Inline schemas refer to components through '#/components/…'; rebase them on the added document.
    v = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as Json);
    validators.set(pointer, v);
  }
  return v;
}

/** The operation a request is for, or undefined for paths and methods the document does not list. */
function operationOf(method: string, path: string): Operation | undefined {
  // A literal path beats a template one ('/s/assets/x' before '/s/{session_id}').
  return OPERATIONS.filter((o) => o.method === method && o.pattern.test(path)).sort(
    (a, b) => a.template.split('{').length - b.template.split('{').length,
  )[0];
}

/**
 * Checks one answer against the document; throws ResponseContractError when it breaks it.
 * Answers on paths the document does not list are only checked for a problem body's shape.
 */
export async function checkResponse(method: string, url: URL, response: Response): Promise<void> {
  const request = `${method} ${url.pathname}`;
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const op = operationOf(method === 'HEAD' ? 'GET' : method, url.pathname);
  let schema: Json | undefined;
  let pointer = '';
  if (!op) {
    if (mediaType !== 'application/problem+json') return;
    schema = { $ref: '#/components/schemas/Problem' };
    pointer = 'Problem';
  } else {
    const answer = (op.responses[String(response.status)] ?? op.responses[`${String(response.status)[0]}XX`] ?? op.responses.default) as
      | Json
      | undefined;
    if (!answer)
      throw new ResponseContractError(
        request,
        response.status,
        `the document lists only ${Object.keys(op.responses).join(', ')} for ${op.method} ${op.template}`,
      );
    const content = answer.content as Json | undefined;
    if (!content || method === 'HEAD' || response.status === 304) return;
    const media = content[mediaType] as Json | undefined;
    if (!media)
      throw new ResponseContractError(
        request,
        response.status,
        `content type '${mediaType}' is not one of ${Object.keys(content).join(', ')}`,
      );
    if (!/json$/.test(mediaType)) return;
    schema = media.schema as Json;
    pointer = `${op.method} ${op.template} ${response.status} ${mediaType}`;
  }
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ResponseContractError(request, response.status, `the ${mediaType} body is not JSON: ${text.slice(0, 200)}`);
  }
  const validate = validatorFor(pointer, schema!);
  if (!validate(body)) {
    const problems = (validate.errors ?? []).map(
      (e) =>
        `${e.instancePath || '/'} ` +
        `${e.message}${e.params && 'additionalProperty' in e.params ? ` '${String(e.params.additionalProperty)}'` : ''}`,
    );
    throw new ResponseContractError(request, response.status, `${[...new Set(problems)].slice(0, 8).join('; ')} in ${text.slice(0, 400)}`);
  }
}

/**
 * What breaks the document's schema `component` in `value` (empty when nothing does): for JSON the
 * API's figures appear in outside HTTP, such as the CLI's `--json`, which speaks the same words.
 */
export function schemaProblems(component: string, value: unknown): string[] {
  const validate = validatorFor(component, { $ref: `#/components/schemas/${component}` });
  if (validate(value)) return [];
  return [
    ...new Set(
      (validate.errors ?? []).map(
        (e) =>
          `${e.instancePath || '/'} ` +
          `${e.message}${e.params && 'additionalProperty' in e.params ? ` '${String(e.params.additionalProperty)}'` : ''}`,
      ),
    ),
  ];
}

const originalFetch = globalThis.fetch;
// Only answers from our own servers, all on loopback; a redirect followed to the object store is not ours.
globalThis.fetch = async function fetchCheckingContract(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await originalFetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  if (url.hostname === '127.0.0.1' && !response.redirected) await checkResponse(method, url, response);
  return response;
};
