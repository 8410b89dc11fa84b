import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import multer from 'multer';
import { ApiError, badField } from '../errors/ApiError.js';

/** An uploaded file, already on disk. */
export interface UploadedFile {
  /** Form field it came in (`model_file`, `model_files`, `reference_image`). */
  field: string;
  /** The client's file name (a base name only; never used as a path). */
  name: string;
  path: string;
  bytes: number;
  /** SHA-256 (hex) of the bytes, taken while they streamed to disk. */
  sha256: string;
}

/** A multipart form: one value per text field (duplicates are refused), files in arrival order. */
export interface Form {
  fields: ReadonlyMap<string, string>;
  files: readonly UploadedFile[];
}

/** Where {@link readMultipartForm} stores files, and its limits. */
export interface MultipartOptions {
  /** Directory each file field's files are written to (shared between requests). */
  dirFor(field: string): string;
  /** Start of every stored file's name, unique to the request. */
  prefix: string;
  /**
   * Receives every path a file is (or starts being) written to, before any byte arrives, so the
   * caller can remove them all whatever happens — including a body cut off mid-file.
   */
  created: string[];
  maxFileBytes: number;
  maxFiles: number;
  /** Field names that may carry files; any other file part is refused by name before it is stored. */
  fileFields: readonly string[];
  /**
   * Bytes a second the body must keep bringing, over every stretch of {@link BODY_RATE_WINDOW_S}
   * seconds (like a reverse proxy's body timeout, but a trickle does not reset it); slower, the
   * request is refused 408 `body_too_slow` and its connection closed. 0: no minimum.
   */
  minBytesPerSecond?: number;
}

/** The stretch (s) over which a body's rate is judged, and the grace before it first is. */
export const BODY_RATE_WINDOW_S = 10;

const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Streams a multipart body to files (never whole files in memory), hashing them on
 * the way and enforcing the limits while the bytes arrive, and returns its fields and files. The
 * caller owns the files listed in `options.created` and removes them.
 */
export async function readMultipartForm(req: Request, res: Response, options: MultipartOptions): Promise<Form> {
  if (!req.is('multipart/form-data')) {
    throw new ApiError(
      400,
      'not_multipart',
      `the body must be multipart/form-data (got ${req.headers['content-type'] ?? 'no Content-Type'})`,
      [{ field: 'Content-Type', message: 'send the request as multipart/form-data' }],
    );
  }
  // A client that left while the request waited (for its key check) has no body left to send: a
  // pipe from the destroyed request would never end, and its admission slot would never free.
  if (req.destroyed) throw requestAborted();
  const writing: Array<Promise<void>> = [];
  const overLimit: { reject(err: Error): void } = { reject: () => {} };
  // File streams still being written: a body refused midway ends them, so their files close.
  const open = new Set<{ destroy(): void }>();
  const upload = multer({
    storage: hashingDiskStorage(options, writing, overLimit, open),
    defParamCharset: 'utf8',
    limits: {
      fileSize: options.maxFileBytes,
      // reference_image rides along with the model files.
      files: options.maxFiles + 1,
      fields: MAX_FIELDS,
      fieldSize: MAX_FIELD_BYTES,
      parts: MAX_FIELDS + options.maxFiles + 1,
      fieldNameSize: 200,
    },
    fileFilter: (_req, file, cb) => {
      if (options.fileFields.includes(file.fieldname)) cb(null, true);
      else cb(unexpectedFile(file.fieldname, options.fileFields));
    },
  }).any();
  let unwatch = () => {};
  try {
    await new Promise<void>((resolve, reject) => {
      // multer reports a file over its limit only once the whole body has arrived; answering at
      // the limit (the error handler then closes the connection) spares reading the rest.
      overLimit.reject = reject;
      // A client that drops its upload is the client's doing: multer says 'Request aborted' as a
      // plain Error, which would be logged as our failure, with its stack.
      upload(req, res, (err: unknown) => (err ? reject(req.destroyed && !req.complete ? requestAborted() : err) : resolve()));
      unwatch = watchBodyRate(req, options.minBytesPerSecond ?? 0, (err) => {
        reject(err);
        for (const stream of open) stream.destroy();
      });
    });
  } finally {
    unwatch();
    // multer can report an error (a client gone mid-file) while a file's stream is still opening;
    // waiting for every write to settle lets the caller's clean-up find each file it removes.
    await Promise.allSettled(writing);
  }
  // multer passes over a body whose Content-Type it cannot parse (`boundary=` with no value)
  // without reading it; there is then no form at all, and the client's header is at fault.
  if (req.body === undefined) {
    throw new ApiError(
      400,
      'invalid_multipart',
      `the multipart body cannot be read: Content-Type ${JSON.stringify(req.headers['content-type'])} has no usable boundary`,
      [{ field: 'Content-Type', message: 'send multipart/form-data with a non-empty boundary parameter' }],
    );
  }
  const fields = new Map<string, string>();
  for (const [name, value] of Object.entries(req.body as Record<string, unknown>)) {
    if (typeof value === 'string') fields.set(name, value);
    else if (Array.isArray(value)) throw badField(name, `sent ${value.length} times; send each field once`, 'duplicate_field');
    else
      throw badField(
        name,
        'bracketed field names are not used; name nested fields with dots, e.g. alignment.point_1',
        'invalid_field_name',
      );
  }
  const files = ((req.files ?? []) as Array<Express.Multer.File & { sha256: string }>).map((f) => ({
    field: f.fieldname,
    name: safeBaseName(f.originalname),
    path: f.path,
    bytes: f.size,
    sha256: f.sha256,
  }));
  for (const f of files) {
    if (fields.has(f.field)) throw badField(f.field, 'sent both as a file and as a text field', 'duplicate_field');
  }
  return { fields, files };
}

/**
 * Watches the bytes a request's connection brings, a second at a time, from the socket's own count
 * (no listener on the body, which multer reads): once {@link BODY_RATE_WINDOW_S} seconds have
 * passed, a window that brought fewer than `minBytesPerSecond` a second calls `tooSlow` with the
 * refusal. Returns the function that stops watching (the body arrived, or was refused).
 */
function watchBodyRate(req: Request, minBytesPerSecond: number, tooSlow: (err: ApiError) => void): () => void {
  if (!(minBytesPerSecond > 0)) return () => {};
  const socket = req.socket;
  const seconds: number[] = [];
  let last = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete) return;
    seconds.push(socket.bytesRead - last);
    last = socket.bytesRead;
    if (seconds.length > BODY_RATE_WINDOW_S) seconds.shift();
    const brought = seconds.reduce((n, b) => n + b, 0);
    if (seconds.length < BODY_RATE_WINDOW_S || brought >= minBytesPerSecond * BODY_RATE_WINDOW_S) return;
    clearInterval(timer);
    tooSlow(
      new ApiError(
        408,
        'body_too_slow',
        `the request body brought ${brought} bytes in the last ${BODY_RATE_WINDOW_S} s, ` +
          `under the ${minBytesPerSecond} bytes a second it must keep (ARSESSION_MIN_BODY_KBPS)`,
        [{ field: 'body', message: `slower than ${minBytesPerSecond} bytes a second` }],
      ),
    );
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/** The refusal of a request whose client closed the connection before its form arrived. */
function requestAborted(): ApiError {
  return new ApiError(400, 'request_aborted', 'the client closed the connection before the form was read', [
    { field: 'body', message: 'the connection closed before the body arrived' },
  ]);
}

/** A file part under a name this endpoint takes no file by: 400 naming the fields it does take. */
function unexpectedFile(field: string, fileFields: readonly string[]): ApiError {
  const taken = fileFields.map((f) => JSON.stringify(f)).join(', ');
  const message =
    `a file was sent as ${JSON.stringify(field)}, which this endpoint takes no ` +
    `file by; it takes files as ${taken} (e.g. curl -F model_file=@house.ifc)`;
  return new ApiError(400, 'unexpected_file', message, [{ field, message: `not a file field here; file fields: ${taken}` }]);
}

/** A file past the per-file limit: 413 naming the file, the limit and the setting that makes it. */
function fileTooLarge(field: string, name: string, maxFileBytes: number): ApiError {
  const limit = `${maxFileBytes} bytes (ARSESSION_MAX_FILE_MB=${+(maxFileBytes / 1024 / 1024).toPrecision(3)})`;
  const message = `${field} ${JSON.stringify(name)} is over the limit of ${limit} per file`;
  return new ApiError(413, 'file_too_large', message, [{ field, message: `over ${limit}` }]);
}

/**
 * multer's disk storage with a SHA-256 taken from the same stream: the server needs every upload's
 * hash (conversion cache, saved models), and reading the file back to get it would cost a second
 * pass over bytes that were just in memory.
 */
function hashingDiskStorage(
  options: MultipartOptions,
  writing: Array<Promise<void>>,
  overLimit: { reject(err: Error): void },
  open: Set<{ destroy(): void }>,
): multer.StorageEngine {
  // A destination function, not a string: with a string multer mkdirSync()s it on every request.
  const disk = multer.diskStorage({
    destination: (_req, file, cb) => cb(null, options.dirFor(file.fieldname)),
    filename: (_req, file, cb) => {
      const name = `${options.prefix}-${options.created.length}`;
      options.created.push(join(options.dirFor(file.fieldname), name));
      cb(null, name);
    },
  });
  return {
    _handleFile(req, file, cb) {
      const hash = createHash('sha256');
      open.add(file.stream);
      file.stream.once('close', () => open.delete(file.stream));
      file.stream.once('end', () => open.delete(file.stream));
      // A second 'data' listener sees every chunk the disk pipe sees, and leaves its backpressure alone.
      file.stream.on('data', (chunk: Buffer) => hash.update(chunk));
      file.stream.once('limit', () => {
        overLimit.reject(fileTooLarge(file.fieldname, file.originalname, options.maxFileBytes));
        // busboy would keep the part open until its boundary arrives; ending it here lets the
        // partial file close (and be removed) now.
        file.stream.destroy();
      });
      writing.push(
        new Promise((settled) => {
          disk._handleFile(req, file, (err, info) => {
            settled();
            if (err) cb(err);
            else cb(null, { ...info, sha256: hash.digest('hex') } as Partial<Express.Multer.File>);
          });
        }),
      );
    },
    _removeFile: (req, file, cb) => disk._removeFile(req, file, cb),
  };
}

/**
 * The last path segment, control and bidirectional-format characters and leading dots removed: a
 * client's name is a label, never a path, must read the way it is stored (no U+202E reversing
 * "gbl.exe" into view), and must not become a hidden file when someone saves it.
 */
function safeBaseName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base
    .replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 200);
  return clean === '' ? 'model' : clean;
}
