import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { partsOnWire, type DeliveredParts } from '@arsession/convert';
import { contentDisposition, deliveredName } from '../files/downloadName.js';
import type { StoredParts } from '../records/AssetInfo.js';
import type { SessionFile, StagedFile } from '../store/SessionStore.js';
import type { SessionStaging } from './SessionStaging.js';
import { partAt } from '../placement/placementPoint.js';

/** A part's name among its session's files: `0.part.03.usdz` for the fourth part of the first model. */
export const partFileName = (order: number, entry: string): string => `${order}.part.${entry}`;

/**
 * The parts of one model taken into its session (`placedAt`: where its placement ties it to the
 * room, in this model's delivered frame, to name the part to load first): the archive the conversion wrote (kept, for an
 * app that downloads them all at once, and for the conversion cache), and each part copied out of
 * it as a file of its own (a byte range of the stored zip, streamed, never held whole), so each
 * has a URL an app loads where the user stands.
 *
 * @example
 * ```ts
 * const { files, stored } = await stagePartFiles(staging, 0, archive, result.parts, 'site.ifc', placementPoint(placement));
 * ```
 */
export async function stagePartFiles(
  staging: SessionStaging,
  order: number,
  archive: StagedFile,
  parts: DeliveredParts,
  sourceName: string,
  placedAt: readonly number[],
): Promise<{ files: SessionFile[]; stored: StoredParts }> {
  const stem = deliveredName(sourceName, '').replace(/\.$/, '');
  const files: SessionFile[] = [
    {
      name: archive.name,
      contentType: 'application/zip',
      bytes: parts.bytes,
      sha256: parts.sha256,
      downloadName: contentDisposition(`${stem}.parts.zip`),
    },
  ];
  const wire = partsOnWire(parts.parts);
  const items: StoredParts['items'] = [];
  for (const [i, part] of parts.parts.entries()) {
    const staged = staging.stage(partFileName(order, part.entry));
    await pipeline(
      createReadStream(archive.from, { start: part.offset, end: part.offset + part.bytes - 1 }),
      createWriteStream(staged.from, { flags: 'wx' }),
    );
    files.push({
      name: staged.name,
      contentType: 'model/vnd.usdz+zip',
      bytes: part.bytes,
      sha256: part.sha256,
      downloadName: contentDisposition(`${stem}.part-${part.entry}`),
    });
    items.push({ ...wire[i]!, file: staged.name });
  }
  const atPlacement = partAt(
    items.map((p) => p.bounds),
    placedAt,
  );
  return { files, stored: { file: archive.name, bytes: parts.bytes, sha256: parts.sha256, items, at_placement: atPlacement } };
}
