import type { ConversionResult } from '@arsession/convert';

/**
 * What a model's conversion left that a later request with the same bytes can reuse: its result
 * without the per-request parts (the detected door, inline bytes), with its files' sizes and hashes.
 */
export type CachedConversion = Omit<ConversionResult, 'door' | 'usdz' | 'glb'> &
  Pick<Required<ConversionResult>, 'usdzFileBytes' | 'usdzFileSha256' | 'glbFileBytes' | 'glbFileSha256'>;

/** The files a cache entry holds: the delivered USDZ and the same scene as GLB. */
export const CACHED_FILES = ['model.usdz', 'model.glb'] as const;

/** One of {@link CACHED_FILES}. */
export type CachedFileName = (typeof CACHED_FILES)[number];
