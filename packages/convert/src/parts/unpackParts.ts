import { UsdUnreadableError } from '@arsession/usd/errors';
import { readZipDirectory } from '@arsession/usd/zip';

/** One part's file as the parts archive holds it. */
export interface PartFile {
  /** Its entry's name (`00.usdz`). */
  name: string;
  /** The USDZ: a view into the archive, not a copy. */
  data: Uint8Array;
}

/**
 * The part files of an archive `deliverParts` wrote (a stored zip), each a view of its bytes:
 * what the CLI writes out one by one and a server serves one part from. An archive that is not
 * one (compressed entries, out of bounds) throws a `UsdError` naming what is wrong.
 *
 * @example
 * ```ts
 * for (const part of unpackParts(readFileSync('house.parts.zip'))) writeFileSync(part.name, part.data);
 * ```
 */
export function unpackParts(archive: Uint8Array): PartFile[] {
  return readZipDirectory(archive, 'parts archive').map((entry) => {
    if (entry.method !== 0) throw new UsdUnreadableError(`parts archive: entry ${entry.name} is compressed; parts are stored`);
    return { name: entry.name, data: archive.subarray(entry.dataOffset, entry.dataOffset + entry.size) };
  });
}
