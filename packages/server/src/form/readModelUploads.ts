import { ApiError, badField } from '../errors/ApiError.js';
import type { Form, UploadedFile } from './readMultipartForm.js';

/**
 * The model files of a request, in upload order: exactly one `model_file`, or one or more
 * `model_files` parts, never both (contract.md).
 */
export function readModelUploads(form: Form, maxFiles: number): UploadedFile[] {
  const single = form.files.filter((f) => f.field === 'model_file');
  const many = form.files.filter((f) => f.field === 'model_files');
  if (single.length > 0 && many.length > 0) {
    throw new ApiError(
      400,
      'mutually_exclusive',
      'model_file and model_files are mutually exclusive: send one model_file, or one or more model_files parts',
      [
        { field: 'model_file', message: 'cannot be sent together with model_files' },
        { field: 'model_files', message: 'cannot be sent together with model_file' },
      ],
    );
  }
  if (single.length > 1)
    throw badField('model_file', `sent ${single.length} times; for several models use model_files parts`, 'duplicate_field');
  const models = single.length === 1 ? single : many;
  if (models.length === 0)
    throw badField('model_file', 'a model is required: send model_file (one) or model_files (several parts)', 'missing_field');
  if (models.length > maxFiles) {
    throw new ApiError(413, 'too_many_files', `${models.length} model files sent; at most ${maxFiles} per request`, [
      { field: 'model_files', message: `at most ${maxFiles} files` },
    ]);
  }
  return models;
}
