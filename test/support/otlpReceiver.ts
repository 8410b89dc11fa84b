import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP exporter sent it, flattened with its resource's attributes. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's span kind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: number;
}

/** A collector's OTLP/HTTP traces endpoint (JSON encoding), on a loopback port. */
export interface OtlpReceiver {
  /** What `OTEL_EXPORTER_OTLP_ENDPOINT` is set to. */
  url: string;
  spans: ReceivedSpan[];
  /** Resolves once a span satisfying `test` has arrived (exporters send in batches). */
  waitFor(test: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  stop(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

const scalarOf = (v: AnyValue): string | number | boolean =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue ?? '';
const attributesOf = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, scalarOf(a.value)]));
// OTLP/JSON writes ids as hex; some encoders as base64 — both read as hex here.
const idOf = (id: string | undefined) =>
  !id
    ? ''
    : /^[0-9a-f]+$/i.test(id) && (id.length === 16 || id.length === 32)
      ? id.toLowerCase()
      : Buffer.from(id, 'base64').toString('hex');

/**
 * Starts an OTLP/HTTP receiver that accepts `POST /v1/traces` in the JSON encoding
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) and keeps every span it is sent: what a collector
 * sees of the processes pointed at it.
 *
 * @example
 * ```ts
 * const otlp = await startOtlpReceiver();
 * // start processes with OTEL_EXPORTER_OTLP_ENDPOINT=otlp.url, then:
 * const job = await otlp.waitFor((s) => s.name === 'arsession.conversion_job');
 * ```
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const waiting = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans?: Array<{
          resource?: { attributes?: KeyValue[] };
          scopeSpans?: Array<{
            spans?: Array<{
              traceId: string;
              spanId: string;
              parentSpanId?: string;
              name: string;
              kind: number;
              attributes?: KeyValue[];
              status?: { code?: number };
            }>;
          }>;
        }>;
      };
      for (const rs of body.resourceSpans ?? []) {
        const resource = attributesOf(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              traceId: idOf(s.traceId),
              spanId: idOf(s.spanId),
              parentSpanId: idOf(s.parentSpanId),
              name: s.name,
              kind: s.kind,
              attributes: attributesOf(s.attributes),
              resource,
              status: s.status?.code ?? 0,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of waiting) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    waitFor(test, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = spans.find(test);
          if (!found) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no such span within ${timeoutMs} ms; received: ${spans.map((s) => s.name).join(', ')}`));
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
