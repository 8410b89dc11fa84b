/**
 * @packageDocumentation
 * Conversion in the calling thread (`@arsession/convert/thread`), for a process that converts one
 * model and ends: the CLI's `arsession convert FILE`. Built as one bundle (the readers split off by
 * format), so a process loads only what its model needs; services use the pool instead.
 */
export {
  ConvertError,
  MeshNodeLimitError,
  ModelUnreadableError,
  UnsupportedFormatError,
  UsdzPackageError,
} from './errors/ConvertError.js';
export {
  convertInThisThread,
  CONVERT_IN_THIS_THREAD_DEFAULTS,
  type ConvertInThisThreadOptions,
  type ThreadConversion,
} from './thread/convertInThisThread.js';
export { armThreadDeadline, type ThreadDeadline, type ThreadDeadlineOptions } from './thread/threadDeadline.js';
export { readSharedFile, readSharedFileAsync } from './io/readSharedFile.js';
export type { ConversionResult } from './worker/protocol.js';
