// The real conversion worker, wrapped so that a test can make it fail on purpose: a request whose
// file name starts with `fault-<kind>.` misbehaves, every other request is converted by the real
// worker unchanged. Plain JavaScript because a worker thread runs outside vitest's transform; the
// pool starts it through `startServer({ conversionWorker })`.
//
//   fault-crash.*       throws while taking the job: the thread dies with an uncaught error
//   fault-exit.*        ends the thread (exit code 3) without answering
//   fault-hang.*        spins forever, as a parser caught in a loop does
//   fault-crash-idle.*  is converted normally, then the thread throws while idle in the pool
import { parentPort } from 'node:worker_threads';

/** The fault a request asks for, from its file name. */
function faultOf(message) {
  const name = message?.request?.fileName;
  return typeof name === 'string' ? /^fault-([a-z-]+)\./.exec(name)?.[1] : undefined;
}

// Registered before the real worker's listener, so a faulty job never reaches it.
parentPort.addEventListener('message', (event) => {
  switch (faultOf(event.data)) {
    case 'crash':
      event.stopImmediatePropagation();
      throw new Error('injected fault: the parser crashed');
    case 'exit':
      event.stopImmediatePropagation();
      process.exit(3);
      break;
    case 'hang':
      event.stopImmediatePropagation();
      // A synchronous loop: only the pool's terminate() can end it, as with a real runaway parser.
      for (;;);
    case 'crash-idle':
      // The real worker answers first; the throw comes once the worker is back in the pool.
      setTimeout(() => {
        throw new Error('injected fault: crashed between jobs');
      }, 150);
      break;
    default:
      break;
  }
});

await import('../../packages/convert/dist/worker/conversionWorker.js');
