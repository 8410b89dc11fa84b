// The real store thread, wrapped so that a test can make it fail on purpose: a batch holding a key
// check for the key `fault-crash` makes the thread throw (it dies with an uncaught error) before
// anything in that batch is answered; everything else goes to the real thread unchanged. Plain
// JavaScript because a worker thread runs outside vitest's transform.
import { parentPort } from 'node:worker_threads';

// The real thread first: its listener must be on the port before any message is delivered. The
// real thread answers a batch on a later turn, so a throw here always comes first.
await import('../../packages/server/dist/store/sqlite/storeThreadWorker.js');
parentPort.on('message', (requests) => {
  if (requests.some((request) => request.authenticate === 'fault-crash')) throw new Error('injected fault: the store thread crashed');
});
