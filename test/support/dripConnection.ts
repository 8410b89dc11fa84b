import { connect } from 'node:net';

/** How a connection fed byte by byte ended. */
export interface DripOutcome {
  /** The server closed the connection (else the test gave up at `giveUpMs`). */
  closedByServer: boolean;
  /** Time from connecting to the close (or to giving up). */
  ms: number;
  /** Bytes the client managed to send. */
  bytesSent: number;
  /** What the server wrote back, raw. */
  received: string;
}

/**
 * A slowloris client: connects and sends `text` one byte every `msPerByte` (and then nothing),
 * until the server closes the connection or `giveUpMs` passes.
 */
export function dripConnection(host: string, port: number, text: string, msPerByte: number, giveUpMs: number): Promise<DripOutcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, host);
    let received = '';
    let bytesSent = 0;
    let done = false;
    const end = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearInterval(drip);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedByServer, ms: performance.now() - started, bytesSent, received });
    };
    const drip = setInterval(() => {
      if (bytesSent < text.length && socket.writable) socket.write(text[bytesSent++]!);
    }, msPerByte);
    const giveUp = setTimeout(() => end(false), giveUpMs);
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (received += c));
    socket.once('close', () => end(true));
    socket.once('error', () => end(true));
  });
}
