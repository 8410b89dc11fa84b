import { zipStored } from '@arsession/usd';

/**
 * A USDZ package of the given entries, in order (the first is the root layer): text for USDA
 * layers, bytes for anything else.
 */
export function usdzOf(entries: Record<string, string | Uint8Array>): Uint8Array {
  const encoded = Object.entries(entries).map(([name, content]) => ({
    name,
    data: typeof content === 'string' ? new TextEncoder().encode(content) : content,
  }));
  return new Uint8Array(Buffer.concat(zipStored(encoded)));
}

/** A stage header stating Y up and metres, so tests see geometry in the units they wrote. */
export const METRES_Y_UP = '#usda 1.0\n(\n    upAxis = "Y"\n    metersPerUnit = 1\n    defaultPrim = "World"\n)\n';

/** A 1×1 PNG (opaque red) and a 1×1 JPEG, valid images for texture tests. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
