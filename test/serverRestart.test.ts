// Durability: the same data directory across restarts, expiry (410) and the sweeper, and the
// operator's key commands through the real binary.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { sessionFileName, sessionFilePath } from '@arsession/server';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { REPO_ROOT } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, distributedEnv } from './support/serverHarness.js';
import { storedFiles } from './support/storedFiles.js';

const BOX = corpusPath('glb', 'Box.glb');

describe('restart on the same data directory', () => {
  it('keeps sessions, files, keys and saved models; removes what a crash left half-made', async () => {
    const first = await startTestServer();
    const { dataDir, key } = first;
    const r = await postSession(first, 'by_plane', form({ model_file: filePart(BOX, 'kept.glb') }));
    expect(r.status).toBe(201);
    const id = sessionIdOf(r.body.deeplink);
    // Its Quick Look package made before the restart, its preview not.
    expect((await fetch((await getDetail(first, id)).body.model_assets[0].quick_look.usdz_url)).status).toBe(200);
    const before = (await getDetail(first, id)).body;
    expect((await first.server.context.objects.cachedEntries()).size).toBe(1);
    await first.stop(true);
    // What a kill -9 mid-request leaves in the data directory: an upload, a USDZ staged for a session.
    writeFileSync(join(dataDir, 'uploads', 'req-dead'), 'partial');
    writeFileSync(join(dataDir, 'uploads', 'AAAAAAAAAAAAAAAAAAAAAA.0.usdz'), 'staged');
    const embedded = first.server.context.objects.engine === 'files';
    if (embedded) {
      // With the files engine also: a session file whose commit never happened, and what an older
      // version left: a directory per session (the kept session moved into one).
      writeFileSync(sessionFilePath(join(dataDir, 'sessions'), 'AAAAAAAAAAAAAAAAAAAAAA', '0.usdz'), 'moved in, never committed');
      mkdirSync(join(dataDir, 'sessions', 'BBBBBBBBBBBBBBBBBBBBBB'));
      writeFileSync(join(dataDir, 'sessions', 'BBBBBBBBBBBBBBBBBBBBBB', '0.usdz'), 'an old layout, no row');
      const file = sessionFilePath(join(dataDir, 'sessions'), id, '0.usdz');
      mkdirSync(join(dataDir, 'sessions', id));
      renameSync(file, join(dataDir, 'sessions', id, '0.usdz'));
    }

    const second = await startTestServer({}, dataDir);
    try {
      const after = await getDetail(second, id);
      expect(after.status).toBe(200);
      const paths = (a: Record<string, any>) => ({
        ...a,
        usdz_url: new URL(a.usdz_url).pathname,
        glb_url: new URL(a.glb_url).pathname,
        quick_look: { ...a.quick_look, usdz_url: new URL(a.quick_look.usdz_url).pathname },
        element_records: { ...a.element_records, url: new URL(a.element_records.url).pathname },
      });
      const session = (d: Record<string, any>) => ({
        ...d,
        page_url: new URL(d.page_url).pathname,
        preview_glb_url: new URL(d.preview_glb_url).pathname,
        model_assets: d.model_assets.map(paths),
      });
      expect(session(after.body)).toEqual(session(before));
      const file = await fetch(after.body.model_assets[0].usdz_url);
      expect(file.status).toBe(200);
      expect(Number(file.headers.get('content-length'))).toBe(before.model_assets[0].usdz_bytes);
      const models = (await (await fetch(`${second.url}/api/vision/v1/models/`, { headers: { 'X-API-Key': key } })).json()) as {
        models: Array<{ source_name: string }>;
      };
      expect(models.models.map((m) => m.source_name)).toContain('kept.glb');
      const claim = await fetch(`${second.url}/api/vision/v1/session/claim/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ onetime_code: r.body.onetime_code }),
      });
      expect(claim.status).toBe(200);
      expect(readdirSync(join(dataDir, 'uploads'))).toEqual([]);
      if (embedded)
        expect(readdirSync(join(dataDir, 'sessions')).sort()).toEqual(
          ['0.elements.json.gz', '0.glb', '0.quicklook.usdz', '0.usdz'].map((name) => sessionFileName(id, name)).sort(),
        );
      else expect(await storedFiles(second, id)).toEqual(['0.elements.json.gz', '0.glb', '0.quicklook.usdz', '0.usdz']);
      const quickLook = await fetch(after.body.model_assets[0].quick_look.usdz_url);
      expect(quickLook.headers.get('etag')).toBe(`"${before.model_assets[0].quick_look.sha256}"`);
      // The preview is made by the restarted server on its first request.
      expect((await fetch(after.body.preview_glb_url)).status).toBe(200);
      expect(await storedFiles(second, id)).toEqual(['0.elements.json.gz', '0.glb', '0.quicklook.usdz', '0.usdz', 'preview.glb']);
      // An embedded cache (its index in memory) starts empty, its files removed (hard links: the
      // session's files stayed); a cluster's lives on in PostgreSQL and the bucket, none of it here.
      expect(readdirSync(join(dataDir, 'cache'))).toEqual([]);
    } finally {
      await second.stop();
    }
  });
});

describe('expiry', () => {
  it('an expired session answers 410 and the sweeper deletes its files', async () => {
    const t = await startTestServer({ sessionTtlSeconds: 1, sweepIntervalSeconds: 1 });
    try {
      const r = await postSession(t, 'by_plane', form({ model_file: filePart(BOX) }), null);
      const id = sessionIdOf(r.body.deeplink);
      const made = (await getDetail(t, id)).body;
      const usdz = made.model_assets[0].usdz_url as string;
      // The files made on first request go with the others.
      expect((await fetch(made.model_assets[0].quick_look.usdz_url)).status).toBe(200);
      expect((await fetch(made.preview_glb_url)).status).toBe(200);
      expect(await storedFiles(t, id)).toEqual(['0.elements.json.gz', '0.glb', '0.quicklook.usdz', '0.usdz', 'preview.glb']);
      await new Promise((done) => setTimeout(done, 2600));
      const detail = await fetch(`${t.url}/api/vision/v1/session/${id}/`);
      expect(detail.status).toBe(410);
      expect(((await detail.json()) as { errors: Array<{ field: string }> }).errors[0]!.field).toBe('session_id');
      expect((await fetch(usdz)).status).toBe(410);
      const claim = await fetch(`${t.url}/api/vision/v1/session/claim/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ onetime_code: r.body.onetime_code }),
      });
      expect(claim.status).toBe(404);
      expect(await storedFiles(t, id)).toEqual([]);
    } finally {
      await t.stop();
    }
  });
});

describe('arsession keys (the operator command)', () => {
  it('create prints a key once, list shows it without the secret, revoke ends it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'arsession-keys-'));
    const bin = join(REPO_ROOT, 'node_modules', '.bin', 'arsession');
    // With the same settings as the server (PostgreSQL and S3 in the distributed project).
    const env = { ...process.env, ARSESSION_DATA_DIR: dataDir, ...(await distributedEnv(dataDir)) };
    const run = (...args: string[]) => spawnSync(bin, args, { env, encoding: 'utf8' });
    try {
      const created = run('keys', 'create', '--account', 'acme');
      expect(created.status).toBe(0);
      const key = created.stdout.trim();
      expect(key).toMatch(/^ars_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
      const listed = JSON.parse(run('keys', 'list', '--json').stdout) as {
        keys: Array<{ id: string; account: string; revoked_at: string | null }>;
      };
      // ars_<16 hex id>_<43-char secret>; the secret itself may contain '_'.
      const [id, secret] = [key.slice(4, 20), key.slice(21)];
      expect(listed.keys).toEqual([expect.objectContaining({ id, account: 'acme', revoked_at: null })]);
      expect(secret).toHaveLength(43);
      expect(JSON.stringify(listed)).not.toContain(secret);
      const t = await startTestServer({}, dataDir);
      try {
        const anchor = {
          'virtual_anchor.center': '[0,0,0]',
          'virtual_anchor.radius': '1',
          'virtual_anchor.plane_normal': '[0,1,0]',
          'virtual_anchor.direction': '[1,0,0]',
        };
        expect(
          (await postSession(t, 'by_virtual_anchor/circle-directional', form({ model_file: filePart(BOX), ...anchor }), key)).status,
        ).toBe(201);
        expect(run('keys', 'revoke', key).status).toBe(0);
        expect(
          (await postSession(t, 'by_virtual_anchor/circle-directional', form({ model_file: filePart(BOX), ...anchor }), key)).status,
        ).toBe(401);
        expect(run('keys', 'revoke', key).status).toBe(1);
      } finally {
        await t.stop(true);
      }
      expect(run('keys', 'create').status).toBe(2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it(
    'run where there is no server database, list and revoke refuse by ' +
      'name instead of making an empty one; create says where it made one',
    () => {
      const elsewhere = mkdtempSync(join(tmpdir(), 'arsession-keys-elsewhere-'));
      const bin = join(REPO_ROOT, 'node_modules', '.bin', 'arsession');
      const env: NodeJS.ProcessEnv = { ...process.env, ARSESSION_DATA_DIR: join(elsewhere, 'data') };
      delete env.ARSESSION_DATABASE_URL;
      const run = (...args: string[]) => spawnSync(bin, args, { env, encoding: 'utf8' });
      try {
        for (const args of [
          ['keys', 'list'],
          ['keys', 'revoke', 'ars_0000000000000000_x'],
        ]) {
          const r = run(...args);
          expect(r.status).toBe(1);
          expect(r.stderr).toContain(`no server database at ${join(elsewhere, 'data', 'arsession.sqlite')}`);
        }
        // Nothing made there at all: no database, not even the data folder.
        expect(existsSync(join(elsewhere, 'data'))).toBe(false);
        const created = run('keys', 'create', '--account', 'acme');
        expect(created.status).toBe(0);
        expect(created.stderr).toContain(`created a new server database at ${join(elsewhere, 'data', 'arsession.sqlite')}`);
        expect(run('keys', 'list').stdout).toContain('acme');
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    },
  );
});
