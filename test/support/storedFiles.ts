import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sessionFileName } from '@arsession/server';
import type { TestServer } from './serverHarness.js';

/**
 * The names of the files a server keeps for a session, read from where its object store keeps
 * them: the data directory's `sessions/` (files engine) or the bucket (S3).
 */
export async function storedFiles(t: TestServer, sessionId: string): Promise<string[]> {
  const objects = t.server.context.objects;
  if (objects.engine === 'files') {
    const prefix = sessionFileName(sessionId, '');
    return readdirSync(join(t.dataDir, 'sessions'))
      .filter((e) => e.startsWith(prefix))
      .map((e) => e.slice(prefix.length))
      .sort();
  }
  return ((await objects.sessionsWithFiles()).get(sessionId)?.names ?? []).sort();
}
