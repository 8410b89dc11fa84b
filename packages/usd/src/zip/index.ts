// The zip half of the package alone (stored entries, 64-byte aligned, checked against hostile
// headers), for callers that unpack or pack archives without loading the USD readers and writers.
export { readZipDirectory, type ZipDirectoryEntry } from './readZipDirectory.js';
export {
  zipLayout,
  zipStored,
  ZIP_STORED_DEFAULTS,
  type ZipEntry,
  type ZipEntryHeader,
  type ZipEntryInput,
  type ZipLayout,
  type ZipStoredOptions,
} from './zipStored.js';
