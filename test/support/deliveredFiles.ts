import { createHash } from 'node:crypto';

/** One delivered file as the detail record describes it and as the server actually serves it. */
export interface DeliveredFile {
  url: string;
  status: number;
  /** What the detail record promises. */
  promised: { bytes: number; sha256: string };
  /** What the download delivered. */
  served: { bytes: number; sha256: string };
}

/**
 * Fetches a session's detail record and downloads every USDZ it lists, hashing what arrives, so a
 * test can compare each file with the size and SHA-256 the detail reports.
 *
 * @returns the detail's status and, when 200, one entry per model asset.
 */
export async function downloadSessionFiles(baseUrl: string, sessionId: string): Promise<{ status: number; files: DeliveredFile[] }> {
  const detail = await fetch(`${baseUrl}/api/vision/v1/session/${sessionId}/`);
  if (detail.status !== 200) return { status: detail.status, files: [] };
  const body = (await detail.json()) as { model_assets: Array<{ usdz_url: string; usdz_bytes: number; usdz_sha256: string }> };
  const files: DeliveredFile[] = [];
  for (const asset of body.model_assets) {
    const res = await fetch(asset.usdz_url);
    const bytes = Buffer.from(await res.arrayBuffer());
    files.push({
      url: asset.usdz_url,
      status: res.status,
      promised: { bytes: asset.usdz_bytes, sha256: asset.usdz_sha256 },
      served: { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') },
    });
  }
  return { status: 200, files };
}
