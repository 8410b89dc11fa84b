// The multipart reader on a real loopback server: a request whose client left before its body was
// read is refused at once, instead of waiting for bytes that can never come.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startManualUpload } from '../../../test/support/rawUpload.js';
import { readMultipartForm } from '../src/form/readMultipartForm.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arsession-form-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readMultipartForm', () => {
  it('refuses a request whose client closed the connection while it waited, without waiting for its body', async () => {
    let outcome!: Promise<unknown>;
    const created: string[] = [];
    const app = express();
    app.post('/', (req, res) => {
      // As a session request waits for its key check: here until the client is gone, and a moment
      // more, so that the request's own 'aborted' error has been emitted with nobody listening.
      outcome = new Promise((settled) => {
        res.once('close', () =>
          setTimeout(() => {
            readMultipartForm(req, res, {
              dirFor: () => dir,
              prefix: 'r',
              created,
              maxFileBytes: 1 << 20,
              maxFiles: 1,
              fileFields: ['model_file'],
            }).then(() => settled('read'), settled);
          }, 20),
        );
      });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((ready) => server.once('listening', ready));
    try {
      // The whole body is sent (it waits unread in the server), then the client leaves, as a load
      // generator stopping does: the reader used to wait for its end forever, holding a slot.
      const upload = startManualUpload(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        field: 'model_file',
        fileName: 'm.glb',
        declaredFileBytes: 100,
      });
      await upload.send(new Uint8Array(100));
      upload.finish();
      while (!outcome) await new Promise((tick) => setTimeout(tick, 5));
      await new Promise((tick) => setTimeout(tick, 50));
      upload.abort();
      const timeout = new Promise((late) => setTimeout(() => late('still waiting after 5 s'), 5000));
      expect(await Promise.race([outcome, timeout])).toMatchObject({ status: 400, code: 'request_aborted', errors: [{ field: 'body' }] });
      expect(created).toEqual([]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
