import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import type { ConversionResult } from '@arsession/convert';

/** The server's own spans come from this tracer; without an SDK started it records nothing, at the cost of a few calls. */
const tracer = () => trace.getTracer('arsession');

/**
 * Runs `work` in a span `name` (active for what it calls: queries, Redis commands, child spans),
 * marks the span failed with the error when `work` throws, and ends it either way.
 *
 * @example
 * ```ts
 * const request = await inSpan('arsession.read_request', { 'arsession.method': 'by_scan' }, () => readRequest(...));
 * ```
 */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      span.recordException(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
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
 * join the session's trace; with none, in a context of its own.
 *
 * @example
 * ```ts
 * return withCarriedContext(job.data.trace, () => inSpan('arsession.conversion_job', {}, convert, SpanKind.CONSUMER));
 * ```
 */
export function withCarriedContext<T>(carrier: Readonly<Record<string, string>> | undefined, work: () => T): T {
  return carrier ? context.with(propagation.extract(ROOT_CONTEXT, carrier), work) : work();
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
  const read = timings.startedAt + timings.readMs, detectMs = timings.detectMs ?? 0;
  const steps: Array<[name: string, start: number, end: number]> = [
    ['arsession.read', timings.startedAt, read - detectMs],
    ...(timings.detectMs === undefined ? [] : [['arsession.detect', read - detectMs, read] as [string, number, number]]),
    ['arsession.convert', read, read + timings.writeMs],
  ];
  for (const [name, start, end] of steps) tracer().startSpan(name, { startTime: start }).end(end);
}
