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
}

/** A multipart form: one value per text field (duplicates are refused), files in arrival order. */
export interface Form {
  fields: ReadonlyMap<string, string>;
  files: readonly UploadedFile[];
}

/** Limits of {@link readMultipartForm}. */
export interface MultipartLimits {
  maxFileBytes: number;
  maxFiles: number;
  /** Field names that may carry files; any other file part is refused by name before it is stored. */
  fileFields: readonly string[];
}

const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Streams a multipart body to `dir` (never whole files in memory), enforcing the limits while the
 * bytes arrive, and returns its fields and files. The caller owns `dir` and removes it.
 */
export async function readMultipartForm(req: Request, res: Response, dir: string, limits: MultipartLimits): Promise<Form> {
  if (!req.is('multipart/form-data')) {
    throw new ApiError(400, 'not_multipart', `the body must be multipart/form-data (got ${req.headers['content-type'] ?? 'no Content-Type'})`, [
      { field: 'Content-Type', message: 'send the request as multipart/form-data' },
    ]);
  }
  let counter = 0;
  const upload = multer({
    storage: multer.diskStorage({ destination: dir, filename: (_req, _file, cb) => cb(null, `upload-${counter++}`) }),
    defParamCharset: 'utf8',
    limits: {
      fileSize: limits.maxFileBytes,
      // reference_image rides along with the model files.
      files: limits.maxFiles + 1,
      fields: MAX_FIELDS,
      fieldSize: MAX_FIELD_BYTES,
      parts: MAX_FIELDS + limits.maxFiles + 1,
      fieldNameSize: 200,
    },
    fileFilter: (_req, file, cb) => {
      if (limits.fileFields.includes(file.fieldname)) cb(null, true);
      else cb(new multer.MulterError('LIMIT_UNEXPECTED_FILE', file.fieldname));
    },
  }).any();
  await new Promise<void>((resolve, reject) => upload(req, res, (err: unknown) => (err ? reject(err) : resolve())));
  // multer passes over a body whose Content-Type it cannot parse (`boundary=` with no value)
  // without reading it; there is then no form at all, and the client's header is at fault.
  if (req.body === undefined) {
    throw new ApiError(400, 'invalid_multipart', `the multipart body cannot be read: Content-Type ${JSON.stringify(req.headers['content-type'])} has no usable boundary`, [
      { field: 'Content-Type', message: 'send multipart/form-data with a non-empty boundary parameter' },
    ]);
  }
  const fields = new Map<string, string>();
  for (const [name, value] of Object.entries(req.body as Record<string, unknown>)) {
    if (typeof value === 'string') fields.set(name, value);
    else if (Array.isArray(value)) throw badField(name, `sent ${value.length} times; send each field once`, 'duplicate_field');
    else throw badField(name, 'bracketed field names are not used; name nested fields with dots, e.g. alignment.point_1', 'invalid_field_name');
  }
  const files = ((req.files ?? []) as Express.Multer.File[]).map((f) => ({ field: f.fieldname, name: safeBaseName(f.originalname), path: f.path, bytes: f.size }));
  for (const f of files) {
    if (fields.has(f.field)) throw badField(f.field, 'sent both as a file and as a text field', 'duplicate_field');
  }
  return { fields, files };
}

/** The last path segment, control characters removed: a client's name is a label, never a path. */
function safeBaseName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return clean === '' || clean === '.' || clean === '..' ? 'model' : clean;
}
