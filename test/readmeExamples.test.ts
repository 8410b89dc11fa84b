import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/corpus.js';
import { startTestServer, type TestServer } from './support/serverHarness.js';

/**
 * Every package README carries a runnable example followed by its output. This runs the example
 * with plain Node against the built package and compares what it prints, so examples cannot rot.
 */
const READMES = ['packages/geometry', 'packages/usd', 'packages/convert', 'packages/server', 'packages/client'];

function exampleOf(readme: string): { code: string; output: string } {
  const m = /```js\n([\s\S]*?)```\s*\n+Output:\s*\n+```text\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error('README has no ```js example followed by its ```text output');
  return { code: m[1]!, output: m[2]! };
}

// The client's example talks to a running server, found as its README says: ARSESSION_URL, ARSESSION_KEY.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('README examples run and print what they say', () => {
  it.each(READMES)('%s', async (dir) => {
    const cwd = join(REPO_ROOT, dir);
    const { code, output } = exampleOf(readFileSync(join(cwd, 'README.md'), 'utf8'));
    const env = { ...process.env, ARSESSION_URL: server.url, ARSESSION_KEY: server.key };
    // Not spawnSync: the server answering the client's example runs in this process.
    const r = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], { cwd, encoding: 'utf8', env }).catch(
      (e: { stdout: string; stderr: string }) => ({ stdout: e.stdout, stderr: e.stderr || String(e) }),
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(output.trim());
  });
});
