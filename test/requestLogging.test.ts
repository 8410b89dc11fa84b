import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/serverHarness.js';

/** Every line the server logs, parsed. */
const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({}, undefined, pino({ level: 'info' }, sink));
});
afterAll(() => t.stop());

/** Sends the head of a multipart upload and part of a file, then drops the connection. */
async function dropMidUpload(): Promise<void> {
  const { port } = new URL(t.url);
  const boundary = 'drop-boundary';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="model_file"; ` +
    `filename="house.glb"\r\nContent-Type: model/gltf-binary\r\n\r\n`;
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((done) => socket.once('connect', () => done()));
  socket.write(
    `POST /api/vision/v1/session/by_plane/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ` +
      `multipart/form-data; boundary=${boundary}\r\nContent-Length: 1000000\r\n\r\n${head}`,
  );
  socket.write(Buffer.alloc(64 * 1024, 7));
  await new Promise((done) => setTimeout(done, 200));
  socket.destroy();
  await new Promise((done) => setTimeout(done, 500));
}

describe('what the server logs about a request', () => {
  it("a client that drops its upload is logged as the client's doing, at info, without a stack", async () => {
    lines.length = 0;
    await dropMidUpload();
    // Logged once, as the refusal it is.
    expect(lines).toContainEqual(expect.objectContaining({ level: 30, code: 'request_aborted', status: 400 }));
    expect(lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
    expect(JSON.stringify(lines)).not.toMatch(/"stack"/);
  });
});
