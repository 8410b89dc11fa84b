import { readdirSync, statSync } from 'node:fs';
import { sessionOfEntry } from '@arsession/server';
import { join, relative } from 'node:path';
import type { TestServer } from './serverHarness.js';

function filesUnder(dir: string): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  for (const name of names) {
    const path = join(dir, name);
    out = statSync(path).isDirectory() ? out.concat(filesUnder(path)) : out.concat(path);
  }
  return out;
}

/**
 * What a server's data directory holds that no session or saved model accounts for: any file in
 * `uploads/`, any entry of `sessions/` that is not a session the API serves, and more files in
 * `models/` than the test key's account lists. Works however the server lays out a request's
 * files, so it checks "a failure leaves nothing behind" rather than one implementation of it.
 */
export async function diskLeftovers(t: TestServer): Promise<string[]> {
  const leftovers = filesUnder(join(t.dataDir, 'uploads')).map((f) => relative(t.dataDir, f));
  for (const id of new Set(readdirSync(join(t.dataDir, 'sessions')).map(sessionOfEntry))) {
    const res = await fetch(`${t.url}/api/vision/v1/session/${encodeURIComponent(id)}/`);
    await res.arrayBuffer();
    if (res.status !== 200) leftovers.push(`sessions/${id}* (the API answers ${res.status})`);
  }
  const res = await fetch(`${t.url}/api/vision/v1/models/`, { headers: { 'X-API-Key': t.key } });
  const saved = ((await res.json()) as { models: unknown[] }).models.length;
  const stored = filesUnder(join(t.dataDir, 'models'));
  if (stored.length > saved) leftovers.push(`models/: ${stored.length} files for ${saved} saved models`);
  return leftovers;
}
