import type { ConversionResult } from '@arsession/convert';

/**
 * What a model's conversion left that a later request with the same bytes can reuse: its result
 * without the per-request parts (the detected door, inline bytes), with its files' sizes and hashes.
 */
export type CachedConversion = Omit<ConversionResult, 'door' | 'usdz' | 'glb'> &
  Pick<Required<ConversionResult>, 'usdzFileBytes' | 'usdzFileSha256' | 'glbFileBytes' | 'glbFileSha256'>;

/** The files a cache entry may hold: the delivered USDZ, the same scene as GLB, and the parts of a model over the budget. */
export const CACHED_FILES = ['model.usdz', 'model.glb', 'model.parts.zip', 'model.elements.json.gz'] as const;

/** One of {@link CACHED_FILES}. */
export type CachedFileName = (typeof CACHED_FILES)[number];

/** Where each of an entry's files is (a local path, or its name in a session): the parts archive only for a model with parts. */
export type CachedFilePlaces = Readonly<
  Record<'model.usdz' | 'model.glb', string> & { 'model.parts.zip'?: string; 'model.elements.json.gz'?: string }
>;

/**
 * The files an entry holds: the USDZ and the GLB always, the parts archive when the model had
 * parts, the element records when it was an IFC (its result says which).
 *
 * @example
 * ```ts
 * cachedFilesOf(entry); // → ['model.usdz', 'model.glb'] for a model within the budget
 * ```
 */
export function cachedFilesOf(entry: Pick<CachedConversion, 'parts' | 'elements'>): CachedFileName[] {
  return [
    'model.usdz',
    'model.glb',
    ...(entry.parts ? (['model.parts.zip'] as const) : []),
    ...(entry.elements ? (['model.elements.json.gz'] as const) : []),
  ];
}
