import { register } from 'node:module';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { resourceFromAttributes } from '@opentelemetry/resources';

/** Options of {@link startTracing}. */
export interface TracingOptions {
  /** The process's role (`all`, `api`, `worker`), recorded on every span as `arsession.role`. */
  role: string;
}

/** Traces being exported: flush and stop them before the process exits. */
export interface RunningTracing {
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK for a server process, configured by the standard `OTEL_*`
 * environment (exporter, OTLP endpoint and protocol, service name, sampler): HTTP and Express,
 * PostgreSQL and ioredis are instrumented, beside the server's own spans (reading, detecting,
 * converting, storing; the job's context carried through the queue). It must run before the
 * server's modules are loaded, which is why `arsession serve` starts it from its entry script,
 * and only when {@link tracesRequested} says so: ESM modules are instrumented through the loader
 * hook registered here, which sees only modules imported after it.
 *
 * @example
 * ```ts
 * const tracing = tracesRequested(process.env) ? await startTracing({ role: 'api' }) : undefined;
 * const { main } = await import('./main.js');
 * ```
 */
export async function startTracing(options: TracingOptions): Promise<RunningTracing> {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES still win: the SDK merges what it detects over this.
    resource: resourceFromAttributes({ 'service.name': 'arsession', 'arsession.role': options.role }),
    instrumentations: [
      // Probes and scrapes are not what a trace is for.
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)\b/.test(req.url ?? '') }),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
      // The command's name only: BullMQ's scripts carry whole jobs (file names included) as arguments.
      new IORedisInstrumentation({ dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
