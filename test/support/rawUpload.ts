import { request, type IncomingHttpHeaders } from 'node:http';

/** What the server answered on a connection a test drives by hand. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A multipart upload whose file bytes the test sends itself, chunk by chunk, or not at all. */
export interface ManualUpload {
  /** Sends file bytes; resolves once they are handed to the socket, `false` when the connection is gone. */
  send(bytes: Uint8Array): Promise<boolean>;
  /** Sends the closing boundary: the body is complete. */
  finish(): void;
  /** Body bytes written so far (envelope included). */
  sent(): number;
  /** The server's answer, or `undefined` when it closed the connection without one. */
  answer: Promise<RawAnswer | undefined>;
  /** Resolves when the connection is closed, by either side. */
  closed: Promise<void>;
  abort(): void;
}

/**
 * Opens a multipart POST with one file part (`field`, `fileName`) after the given text fields and
 * sends the envelope up to the file's first byte; the caller then sends the file as it likes.
 * `declaredFileBytes` sets Content-Length as if the whole file will follow.
 */
export function startManualUpload(
  url: string,
  options: {
    field: string;
    fileName: string;
    declaredFileBytes: number;
    fields?: Record<string, string>;
    headers?: Record<string, string>;
    localAddress?: string;
  },
): ManualUpload {
  const boundary = `----hardening${Date.now().toString(36)}`;
  const fieldParts = Object.entries(options.fields ?? {})
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const head = Buffer.from(
    `${fieldParts}--${boundary}\r\nContent-Disposition: form-data; name="${options.field}"; ` +
      `filename="${options.fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = request(url, {
    method: 'POST',
    ...(options.localAddress && { localAddress: options.localAddress }),
    headers: {
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      'Content-Length': String(head.length + options.declaredFileBytes + tail.length),
      ...options.headers,
    },
  });
  let sent = 0;
  let gone = false;
  const closed = new Promise<void>((resolve) =>
    req.once('close', () => {
      gone = true;
      resolve();
    }),
  );
  const answer = new Promise<RawAnswer | undefined>((resolve) => {
    req.once('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.once('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.once('error', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.once('error', () => resolve(undefined));
    void closed.then(() => setTimeout(() => resolve(undefined), 50));
  });
  const write = (bytes: Uint8Array) =>
    new Promise<boolean>((resolve) => {
      if (gone || req.destroyed) return resolve(false);
      sent += bytes.length;
      req.write(bytes, (err) => resolve(!err));
    });
  void write(head);
  return {
    send: write,
    finish: () => void req.end(tail),
    sent: () => sent,
    answer,
    closed,
    abort: () => void req.destroy(),
  };
}
