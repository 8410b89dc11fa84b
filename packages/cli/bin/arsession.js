#!/usr/bin/env node
import { main } from '../dist/main.js';

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
// Done: leave now rather than wait for idle conversion workers (each holding a WASM heap) to be
// torn down one by one, which costs more than converting a small model. What was written to
// stdout and stderr is flushed first (pipes are asynchronous on some systems).
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((done) => stream.write('', done))));
process.exit();
