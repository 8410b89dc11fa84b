import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { ConvertError, type ConversionResult } from '@arsession/convert';
import { ApiError } from '../errors/ApiError.js';

/**
 * The server's own spans come from this tracer. Taken once: it is a proxy that starts recording
 * when an SDK is registered; without one each span is a non-recording object and a few calls.
 */
const tracer = trace.getTracer('arsession');

/**
 * Runs `work` in a span `name` (active for what it calls: queries, Redis commands, child spans)
 * and ends it either way. A fault (a 5xx, anything unexpected) marks the span failed; a refusal of
 * the client's input (a model that cannot be read, a 4xx) is the service working, so it is only
 * named (`arsession.refused`: its code).
 *
 * @example
 * ```ts
 * const request = await inSpan('arsession.read_request', { 'arsession.method': 'by_scan' }, () => readRequest(...));
 * ```
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      const refused = refusalCode(err);
      if (refused) {
        span.setAttribute('arsession.refused', refused);
      } else {
        const error = err instanceof Error ? err : new Error(String(err));
        span.recordException(error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
      }
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * The active trace context as W3C Trace Context fields (`traceparent`, `tracestate`), for a job
 * to carry to the worker; `undefined` when no trace is being recorded (traces off).
 *
 * @example
 * ```ts
 * await queue.add('convert', { ...data, ...(traceCarrier() && { trace: traceCarrier() }) });
 * ```
 */
export function traceCarrier(): Record<string, string> | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/**
 * Runs `work` in the trace context a job carried ({@link traceCarrier}), so the worker's spans
 * join the session's trace; with none, in a trace of its own (never in whatever happened to be active).
 *
 * @example
 * ```ts
 * return withCarriedContext(job.data.trace, () => inSpan('arsession.conversion_job', {}, convert, SpanKind.CONSUMER));
 * ```
 */
export function withCarriedContext<T>(carrier: Readonly<Record<string, string>> | undefined, work: () => T): T {
  return context.with(carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT, work);
}

/**
 * The steps of a conversion (reading, detecting the door, converting and writing) as spans under
 * the active one, placed by the times the conversion recorded in its thread: the thread itself
 * has no tracer.
 *
 * @example
 * ```ts
 * const result = await convertModel(bytes, request);
 * recordConversionSteps(result.timings);
 * ```
 */
export function recordConversionSteps(timings: ConversionResult['timings']): void {
  if (!trace.getActiveSpan()?.isRecording()) return;
  const read = timings.startedAt + timings.readMs,
    detectMs = timings.detectMs ?? 0;
  const step = (name: string, start: number, end: number) => tracer.startSpan(name, { startTime: start }).end(end);
  step('arsession.read', timings.startedAt, read - detectMs);
  if (timings.detectMs !== undefined) step('arsession.detect', read - detectMs, read);
  step('arsession.convert', read, read + timings.writeMs);
}

/** The code of an error that refuses the client's input (a model's ConvertError, a 4xx), or undefined for a fault. */
function refusalCode(err: unknown): string | undefined {
  if (err instanceof ConvertError) return err.code;
  if (err instanceof ApiError && err.status < 500) return err.code;
  return undefined;
}
