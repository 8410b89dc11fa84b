// The README's "first session in five minutes", run as written: its shell block with bash, its
// curl lines against a real server, its key made by the command it names. A README whose
// commands fail is the first thing a newcomer meets.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, REPO_ROOT } from './support/corpus.js';
import { startTestServer, type TestServer } from './support/serverHarness.js';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';

/** The README's shell block marked `<!-- first-session -->`. */
function firstSessionBlock(): string {
  const m = /<!-- first-session -->\s*```sh\n([\s\S]*?)```/.exec(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
  if (!m) throw new Error('README.md has no ```sh block after <!-- first-session -->');
  return m[1]!;
}

let t: TestServer;
let dir: string;
beforeAll(async () => {
  t = await startTestServer();
  // Inside the repository, as the README says: `pnpm exec arsession` finds the workspace from there.
  const parent = join(REPO_ROOT, 'node_modules', '.cache');
  mkdirSync(parent, { recursive: true });
  dir = mkdtempSync(join(parent, 'first-session-'));
  writeFileSync(join(dir, 'poster.png'), ONE_PIXEL_PNG);
});
afterAll(async () => {
  await t.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('README: your first session in five minutes', () => {
  it('names all seven session endpoints, the detail, a file and the claim', () => {
    const block = firstSessionBlock();
    for (const path of [
      'by_plane/',
      'by_scan/',
      'by_virtual_anchor/circle-directional/',
      'by_virtual_anchor/rectangle-short-side/',
      'by_virtual_anchor/corner-directional/',
      'by_virtual_anchor/segment-directional/',
      'by_refimage/',
      '$API/$SESSION/',
      'usdz_url',
      '$API/claim/',
    ]) {
      expect(block).toContain(path);
    }
  });

  it('runs as written: every curl answered, the USDZ downloaded whole, the code claimed once', async () => {
    const env = { ...process.env, ARSESSION: t.url, HOUSE: corpusPath('ifc', 'AC20-FZK-Haus.ifc'), ARSESSION_DATA_DIR: t.dataDir };
    // `-e`: any curl -f that gets an error status stops the script, and the test with it.
    const run = await promisify(execFile)('bash', ['-e', '-o', 'pipefail', '-c', firstSessionBlock()], {
      cwd: dir,
      env,
      encoding: 'utf8',
      maxBuffer: 16 << 20,
      timeout: 240_000,
    }).catch((e: { stdout: string; stderr: string; code: number }) => ({ ...e, failed: true }));
    expect('failed' in run ? `${run.stderr}\n${run.stdout}` : '', 'the block stopped').toBe('');
    const session = JSON.parse(readFileSync(join(dir, 'by_plane.json'), 'utf8')) as { deeplink: string; onetime_code: string };
    const detail = JSON.parse(readFileSync(join(dir, 'detail.json'), 'utf8')) as {
      session_id: string;
      model_assets: Array<{ usdz_bytes: number }>;
    };
    expect(session.deeplink.endsWith(detail.session_id)).toBe(true);
    expect(existsSync(join(dir, 'house.usdz')) && statSync(join(dir, 'house.usdz')).size).toBe(detail.model_assets[0]!.usdz_bytes);
    // The last line's answer: the claimed session.
    expect(run.stdout.trim().split('\n').at(-1)).toContain(`"session_id":"${detail.session_id}"`);
    // Seven sessions (two by_scan) plus the by_plane one.
    expect((run.stdout.match(/"onetime_code":"\d{12}"/g) ?? []).length).toBe(8);
  });
});
