#!/usr/bin/env node
// Traces, when the OTEL_* environment asks for them, start before the server's modules load: the
// instrumentation sees only what is imported after it. Without them nothing of OpenTelemetry loads.
const tracing =
  process.argv[2] === 'serve'
    ? await (await import('@arsession/server/tracing')).startTracingIfRequested(process.argv.slice(3), process.env)
    : undefined;
const { main } = await import('../dist/main.js');

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
// The spans of the last requests are exported before the process leaves, within a few seconds: a
// collector out of reach must not hold the exit past an orchestrator's grace period.
await Promise.race([tracing?.shutdown().catch(() => undefined), new Promise((done) => setTimeout(done, 5000).unref())]);
// Done: leave now rather than wait for idle conversion workers (each holding a WASM heap) to be
// torn down one by one, which costs more than converting a small model. What was written to
// stdout and stderr is flushed first (pipes are asynchronous on some systems).
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((done) => stream.write('', done))));
process.exit();
