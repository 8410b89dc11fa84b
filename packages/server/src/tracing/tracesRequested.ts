/**
 * Whether the standard OpenTelemetry environment asks for traces: an OTLP endpoint is set
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) or an exporter named
 * (`OTEL_TRACES_EXPORTER`, other than `none`), and the SDK is not disabled (`OTEL_SDK_DISABLED`).
 * Without it the SDK is never loaded, so traces cost nothing.
 *
 * @example
 * ```ts
 * tracesRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }); // → true
 * tracesRequested({}); // → false
 * ```
 */
export function tracesRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter) return exporter !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}
