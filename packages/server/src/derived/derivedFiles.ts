import type { ConversionResult } from '@arsession/convert';
import type { Vec3 } from '@arsession/geometry';
import { contentDisposition, deliveredName } from '../files/downloadName.js';
import type { QuickLookFile } from '../records/AssetInfo.js';
import type { QuickLook } from '../records/Placement.js';
import type { SessionRecord } from '../store/SessionStore.js';
import { previewGlb } from './previewGlb.js';
import { quickLookPackage, type ReferenceImage } from './quickLookPackage.js';

/** The name of a session's preview among its files. */
export const PREVIEW_FILE = 'preview.glb';

/** The name of an asset's AR Quick Look package among its session's files. */
export const quickLookFileName = (order: number): string => `${order}.quicklook.usdz`;

/** A file a session gains on first request: what it is served as, and how it is made from the session's own files. */
export interface DerivedFile {
  name: string;
  contentType: string;
  downloadName: string;
  /** Makes the file's bytes, reading the session's files it needs through `read`. */
  make(read: (name: string) => Promise<Uint8Array>): Promise<Uint8Array[]>;
}

/**
 * An asset's `quick_look` as its session stores it from the start: its own package (made on first
 * request), or the plain USDZ with the reason when Quick Look cannot anchor it — because the
 * placement cannot be expressed, or because the upload cannot be extended (`anchorRefusal`).
 *
 * @example
 * ```ts
 * const info = quickLookFileOf(0, '0.usdz', placement.quick_look, result.anchorRefusal);
 * ```
 */
export function quickLookFileOf(
  order: number,
  usdzFile: string,
  quickLook: QuickLook,
  refusal: ConversionResult['anchorRefusal'],
): QuickLookFile {
  if (quickLook.anchoring === 'none') return { file: usdzFile, anchoring: 'none', reason: quickLook.reason };
  if (refusal) return { file: usdzFile, anchoring: 'none', reason: refusal.message };
  return { file: quickLookFileName(order), anchoring: quickLook.anchoring, reason: null };
}

/**
 * The file named `name` a session can be given on first request, or undefined: an asset's AR
 * Quick Look package (when its `quick_look` names one) and the session page's preview (when the
 * first model has a GLB). Made on request rather than with the session: most sessions are opened
 * by an app that needs neither, and a session's creation stays as cheap as it was.
 *
 * @example
 * ```ts
 * const derived = derivedFileOf(session, 'preview.glb');
 * const parts = await derived?.make((name) => objects.readSessionFile(session.id, name));
 * ```
 */
export function derivedFileOf(session: SessionRecord, name: string): DerivedFile | undefined {
  const { placement } = session;
  const imageOf = async (read: (name: string) => Promise<Uint8Array>): Promise<ReferenceImage | undefined> => {
    if (placement.method !== 'by_refimage') return undefined;
    const file = session.files.find((f) => f.name === placement.image_file);
    return file && { data: await read(file.name), mimeType: file.contentType === 'image/jpeg' ? 'image/jpeg' : 'image/png' };
  };
  const first = session.assets[0];
  if (name === PREVIEW_FILE && first?.info.glb_file) {
    const glbFile = first.info.glb_file;
    return {
      name,
      contentType: 'model/gltf-binary',
      downloadName: contentDisposition(PREVIEW_FILE),
      make: async (read) =>
        previewGlb({
          glb: await read(glbFile),
          placement,
          models: session.assets.map((a) => ({
            bounds: { min: a.info.bounds.min as Vec3, max: a.info.bounds.max as Vec3 },
            offset: a.info.offset as Vec3,
          })),
          ...(await imageOf(read).then((image) => image && { image })),
        }),
    };
  }
  const asset = session.assets.find((a) => a.info.quick_look?.file === name && a.info.quick_look.anchoring !== 'none');
  const quickLook = placement.quick_look;
  if (asset && first && quickLook && quickLook.anchoring !== 'none') {
    return {
      name,
      contentType: 'model/vnd.usdz+zip',
      downloadName: contentDisposition(deliveredName(asset.sourceName, 'usdz')),
      make: async (read) =>
        quickLookPackage({
          usdz: await read(asset.info.usdz_file),
          offset: asset.info.offset as Vec3,
          primaryOffset: first.info.offset as Vec3,
          quickLook,
          ...(await imageOf(read).then((image) => image && { image })),
        }),
    };
  }
  return undefined;
}
