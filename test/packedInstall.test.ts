// The packages as a project outside the workspace gets them: packed as publishing would pack them
// (pnpm pack, which turns workspace: ranges into versions), installed by npm from the tarballs
// alone into a folder outside this repository, then imported, type-checked and run there.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, REPO_ROOT } from './support/corpus.js';
import { startTestServer, type TestServer } from './support/serverHarness.js';

const PACKAGES = {
  geometry: '@arsession/geometry',
  usd: '@arsession/usd',
  convert: '@arsession/convert',
  client: '@arsession/client',
} as const;
const PNPM = ['-y', (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { packageManager: string }).packageManager];

const NODE_TYPES = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', '@types', 'node', 'package.json'), 'utf8')) as { version: string }
).version;

let project: string;
let tarballs: Record<string, string>;
let t: TestServer;

/**
 * Runs `file` (an ES module written into the project) with this runtime; its stdout parsed as JSON.
 * Not synchronously: the test server answering it lives in this process.
 */
async function runInProject(file: string, source: string, ...args: string[]): Promise<Record<string, unknown>> {
  writeFileSync(join(project, file), source);
  const { stdout } = await promisify(execFile)(process.execPath, [file, ...args], { cwd: project, encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'arsession-outside-'));
  const packed = join(project, 'tarballs');
  mkdirSync(packed);
  for (const dir of Object.keys(PACKAGES)) {
    execFileSync('npx', [...PNPM, 'pack', '--pack-destination', packed], {
      cwd: join(REPO_ROOT, 'packages', dir),
      stdio: 'pipe',
      timeout: 120_000,
    });
  }
  tarballs = Object.fromEntries(
    Object.entries(PACKAGES).map(([dir, name]) => [
      name,
      join(packed, readdirSync(packed).find((f) => f.startsWith(`arsession-${dir}-`))!),
    ]),
  );
  // Each workspace package names the others by version; the tarballs are where those versions are.
  // A Node project brings Node's types itself (convert's declarations use them).
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify(
      {
        name: 'outside',
        private: true,
        type: 'module',
        dependencies: Object.fromEntries(Object.entries(tarballs).map(([name, path]) => [name, `file:${path}`])),
        devDependencies: { '@types/node': NODE_TYPES },
      },
      null,
      2,
    ),
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd: project,
    stdio: 'pipe',
    timeout: 300_000,
  });
  t = await startTestServer();
}, 600_000);

afterAll(async () => {
  await t?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the packages packed and installed by a project outside the workspace', () => {
  it('are the installed copies, each with its manifest naming versions, never workspace: ranges', async () => {
    const out = (await runInProject(
      'where.mjs',
      `
      import { readFileSync } from 'node:fs';
      const names = ${JSON.stringify(Object.values(PACKAGES))};
      const found = {};
      for (const name of names) {
        const entry = new URL(import.meta.resolve(name));
        const manifest = JSON.parse(readFileSync(new URL('../package.json', entry), 'utf8'));
        found[name] = { entry: entry.pathname, ranges: Object.values(manifest.dependencies ?? {}) };
      }
      console.log(JSON.stringify(found));
    `,
    )) as Record<string, { entry: string; ranges: string[] }>;
    for (const name of Object.values(PACKAGES)) {
      expect(out[name]!.entry.startsWith(join(project, 'node_modules', name, 'dist')), out[name]!.entry).toBe(true);
      expect(out[name]!.ranges.filter((r) => r.startsWith('workspace:'))).toEqual([]);
    }
  });

  it('each carry their README and the licence their manifest names', () => {
    for (const tarball of Object.values(tarballs)) {
      const entries = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
      expect(entries, tarball).toEqual(expect.arrayContaining(['package/README.md', 'package/LICENSE', 'package/package.json']));
      expect(execFileSync('tar', ['xzf', tarball, '-O', 'package/LICENSE'], { encoding: 'utf8' })).toMatch(/^MIT License/);
    }
  });

  it('convert a model in their worker threads and validate a door opening', async () => {
    const out = await runInProject(
      'convert.mjs',
      `
      import { readFileSync } from 'node:fs';
      import { closeConversionPool, convertModel } from '@arsession/convert';
      import { validateOpening } from '@arsession/geometry';
      const result = await convertModel(new Uint8Array(readFileSync(process.argv[2])), { fileName: 'Box.glb' });
      await closeConversionPool();
      const corners = [[-0.45, 0, 0], [0.45, 0, 0], [0.45, 2.1, 0], [-0.45, 2.1, 0]];
      const door = validateOpening({ corners, wallNormal: [0, 0, 1], coordinateSystem: 'y-up' });
      const magic = Buffer.from(result.usdz.subarray(0, 2)).toString();
      console.log(JSON.stringify({ magic, triangles: result.stats.triangles, width: door.width }));
    `,
      corpusPath('glb', 'Box.glb'),
    );
    expect(out).toEqual({ magic: 'PK', triangles: 12, width: expect.closeTo(0.9, 9) });
  });

  it('type-check a strict TypeScript project against their packed declarations', () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
        },
        files: ['typed.ts'],
      }),
    );
    writeFileSync(
      join(project, 'typed.ts'),
      `
      import { createArsessionClient, type SessionDetail } from '@arsession/client';
      import { convertModel, type ConversionResult } from '@arsession/convert';
      import { validateOpening, type Vec3 } from '@arsession/geometry';
      const ar = createArsessionClient({ baseUrl: 'https://ar.example.com' });
      type Method = SessionDetail['placement']['method'];
      export async function place(bytes: Uint8Array, model: Blob): Promise<[number, string, Method | undefined]> {
        const result: ConversionResult = await convertModel(bytes);
        const normal: Vec3 = [0, 0, 1];
        const corners: Vec3[] = [[-0.45, 0, 0], [0.45, 0, 0], [0.45, 2.1, 0], [-0.45, 2.1, 0]];
        validateOpening({ corners, wallNormal: normal, coordinateSystem: 'y-up' });
        const { data } = await ar.POST('/api/vision/v1/session/by_plane/', { body: { model_file: model } });
        return [result.stats.triangles, data?.deeplink ?? '', undefined];
      }
      // @ts-expect-error the packed types still refuse a form with two models
      void ar.POST('/api/vision/v1/session/by_plane/', { body: { model_file: new Blob([]), model_id: 'm' } });
    `,
    );
    const tsc = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], {
      cwd: project,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('create a session on a real server through the packed client', async () => {
    const out = await runInProject(
      'client.mjs',
      `
      import { readFileSync } from 'node:fs';
      import { createArsessionClient, sessionIdOf } from '@arsession/client';
      const ar = createArsessionClient({ baseUrl: process.argv[2], apiKey: process.argv[3] });
      const model = new File([readFileSync(process.argv[4])], 'Box.glb');
      const corners = [[-0.45, 0, 1], [0.45, 0, 1], [0.45, 2.1, 1], [-0.45, 2.1, 1]];
      const body = { model_file: model, 'alignment.corners': corners, 'alignment.wall_normal': [0, 0, 1] };
      const created = await ar.POST('/api/vision/v1/session/by_scan/', { body });
      if (created.error) throw new Error(JSON.stringify(created.error));
      const path = { session_id: sessionIdOf(created.data.deeplink) };
      const { data } = await ar.GET('/api/vision/v1/session/{session_id}/', { params: { path } });
      const status = created.response.status;
      console.log(JSON.stringify({ status, method: data.placement.method, source: data.model_assets[0].source_name }));
    `,
      t.url,
      t.key,
      corpusPath('glb', 'Box.glb'),
    );
    expect(out).toEqual({ status: 201, method: 'by_scan', source: 'Box.glb' });
  });
});
