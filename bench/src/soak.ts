// `pnpm soak [--seconds N] [--clients N]`: a bounded loopback soak of the server in its own process.
// Many clients mix every kind of request (new and repeated models, IFC and GLB, details, ranged
// downloads, claims, saved models, health); every answer is checked against what that request
// should get, and the server's memory and open file descriptors are sampled throughout.
// Two phases: a queue deep enough for every client (no 503 may appear), then the default queue
// (503 + Retry-After expected, and nothing else unexpected). Writes bench/results/soak.json.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, CORPUS_DIR } from './corpus.js';
import { environment } from './environment.js';
import { startTarget } from './startTarget.js';

interface Sample {
  at: number;
  rssMb: number;
  fds: number;
}
interface PhaseResult {
  queue: number;
  clients: number;
  seconds: number;
  requests: number;
  byKind: Record<string, number>;
  byStatus: Record<string, number>;
  unexpected: Array<{ kind: string; status: number; detail: string }>;
  /** Server RSS and open descriptors: before load, peak, and after load settled. */
  before: Sample;
  peak: { rssMb: number; fds: number };
  after: Sample;
  samples: Sample[];
}

const { values } = parseArgs({ options: { seconds: { type: 'string' }, clients: { type: 'string' } }, strict: true });
const SECONDS = Number(values.seconds ?? 90);
const CLIENTS = Number(values.clients ?? 200);

const BOX = readFileSync(join(CORPUS_DIR, 'glb', 'Box.glb'));
const HELMET = readFileSync(join(CORPUS_DIR, 'glb', 'DamagedHelmet.glb'));
const HOUSE = readFileSync(join(CORPUS_DIR, 'ifc', 'IfcOpenHouse_IFC4.ifc'));
const AC20 = readFileSync(join(CORPUS_DIR, 'ifc', 'AC20-FZK-Haus.ifc'));
let unique = 0;
/** The same house with a comment after its end marker: new bytes, so it is really converted. */
const uniqueHouse = () => Buffer.concat([HOUSE, Buffer.from(`\n/* soak ${unique++} */\n`)]);

const ANCHOR = {
  'virtual_anchor.anchor_type': 'rectangle_short_side',
  'virtual_anchor.center': '[0, 0, 0]',
  'virtual_anchor.width': '0.6',
  'virtual_anchor.height': '1.2',
  'virtual_anchor.plane_normal': '[0, 1, 0]',
  'virtual_anchor.short_side_direction': '[1, 0, 0]',
};
const DOOR = { 'alignment.corners': '[[-0.45,0,0],[0.45,0,0],[0.45,2.1,0],[-0.45,2.1,0]]', 'alignment.wall_normal': '[0, 0, 1]' };

function sample(pid: number, started: number): Sample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    at: Math.round((Date.now() - started) / 100) / 10,
    rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024,
    fds: readdirSync(`/proc/${pid}/fd`).length,
  };
}

async function phase(queue: number): Promise<PhaseResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'arsession-soak-'));
  const server = await startTarget(['soak', dataDir, String(queue)]);
  const api = `${server.url}/api/vision/v1`;
  const started = Date.now();
  const samples: Sample[] = [];
  const result: PhaseResult = {
    queue,
    clients: CLIENTS,
    seconds: SECONDS,
    requests: 0,
    byKind: {},
    byStatus: {},
    unexpected: [],
    before: sample(server.pid, started),
    peak: { rssMb: 0, fds: 0 },
    after: { at: 0, rssMb: 0, fds: 0 },
    samples,
  };
  const sampler = setInterval(() => samples.push(sample(server.pid, started)), 1000);
  const sessions: Array<{ id: string; code: string }> = [];
  const post = (path: string, fields: Record<string, string>, file: Buffer, name: string, key = true) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set('model_file', new Blob([file]), name);
    return fetch(`${api}/session/${path}/`, { method: 'POST', body: form, headers: key ? { 'X-API-Key': server.key } : {} });
  };
  // Each kind: how often, how to send it, and which statuses are right for it.
  const kinds: Array<[string, number, () => Promise<Response>, number[]]> = [
    ['anchor Box.glb (cached)', 30, () => post('by_virtual_anchor/rectangle-short-side', ANCHOR, BOX, 'box.glb'), [201]],
    ['plane DamagedHelmet (3.7 MB)', 8, () => post('by_plane', {}, HELMET, 'helmet.glb', false), [201]],
    ['scan mode 2 on a new IFC', 8, () => post('by_scan', DOOR, uniqueHouse(), 'house.ifc'), [201]],
    ['plane AC20 IFC (2.6 MB)', 4, () => post('by_plane', {}, AC20, 'ac20.ifc'), [201]],
    ['refused: not a model', 5, () => post('by_plane', {}, Buffer.from('not a model'), 'x.glb', false), [415]],
    ['refused: wrong key', 5, () => post('by_virtual_anchor/rectangle-short-side', ANCHOR, BOX, 'box.glb', false), [401]],
    ['detail', 15, () => fetch(`${api}/session/${pick(sessions)?.id ?? 'none'}/`), [200, 404]],
    [
      'ranged download',
      10,
      async () => {
        const s = pick(sessions);
        return fetch(`${api}/session/${s?.id ?? 'none'}/files/0.usdz`, { headers: { Range: 'bytes=0-1023' } });
      },
      [206, 404],
    ],
    [
      'claim',
      5,
      () =>
        fetch(`${api}/session/claim/`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ onetime_code: sessions.pop()?.code ?? '000000' }),
        }),
      [200, 404, 429],
    ],
    ['saved models', 5, () => fetch(`${api}/models/`, { headers: { 'X-API-Key': server.key } }), [200]],
    ['healthz', 5, () => fetch(`${server.url}/healthz`), [200]],
  ];
  const total = kinds.reduce((n, k) => n + k[1], 0);
  const choose = () => {
    let r = Math.random() * total;
    for (const k of kinds) if ((r -= k[1]) < 0) return k;
    return kinds[0]!;
  };
  const deadline = started + SECONDS * 1000;
  const client = async () => {
    while (Date.now() < deadline) {
      const [kind, , send, expected] = choose();
      let status = 0,
        detail = '';
      try {
        const res = await send();
        status = res.status;
        const body = await res.arrayBuffer();
        if (status === 201) {
          const created = JSON.parse(new TextDecoder().decode(body)) as { deeplink: string; onetime_code: string };
          sessions.push({ id: created.deeplink.slice(created.deeplink.lastIndexOf('/') + 1), code: created.onetime_code });
          if (sessions.length > 500) sessions.splice(0, 100);
        } else if (status >= 400) detail = new TextDecoder().decode(body).slice(0, 200);
        if (status === 503 && res.headers.get('retry-after') === null) detail = 'a 503 without Retry-After';
      } catch (err) {
        detail = (err as Error).message;
      }
      result.requests++;
      result.byKind[kind] = (result.byKind[kind] ?? 0) + 1;
      result.byStatus[status] = (result.byStatus[status] ?? 0) + 1;
      const saturated = status === 503 && detail.includes('saturated') && queue < CLIENTS;
      if (!expected.includes(status) && !saturated) {
        if (result.unexpected.length < 50) result.unexpected.push({ kind, status, detail });
        else result.unexpected.length++;
      }
      // A refused client waits as Retry-After asks (shortened: the soak keeps the pressure on).
      if (status === 503) await new Promise((r) => setTimeout(r, 200));
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  await new Promise((r) => setTimeout(r, 3000));
  clearInterval(sampler);
  result.after = sample(server.pid, started);
  result.peak = { rssMb: Math.max(...samples.map((s) => s.rssMb)), fds: Math.max(...samples.map((s) => s.fds)) };
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
  return result;
}

function pick<T>(list: readonly T[]): T | undefined {
  return list[Math.floor(Math.random() * list.length)];
}

const unsaturated = await phase(CLIENTS + 16);
console.error(
  `queue ${unsaturated.queue}: ${unsaturated.requests} requests, unexpected ${unsaturated.unexpected.length}, ` +
    `statuses ${JSON.stringify(unsaturated.byStatus)}, RSS ${unsaturated.before.rssMb.toFixed(0)} ` +
    `→ peak ${unsaturated.peak.rssMb.toFixed(0)} → ${unsaturated.after.rssMb.toFixed(0)} MB, ` +
    `fds ${unsaturated.before.fds} → peak ${unsaturated.peak.fds} → ${unsaturated.after.fds}`,
);
const saturated = await phase(8);
console.error(
  `queue ${saturated.queue}: ${saturated.requests} requests, unexpected ${saturated.unexpected.length}, ` +
    `statuses ${JSON.stringify(saturated.byStatus)}, RSS ${saturated.before.rssMb.toFixed(0)} ` +
    `→ peak ${saturated.peak.rssMb.toFixed(0)} → ${saturated.after.rssMb.toFixed(0)} MB, ` +
    `fds ${saturated.before.fds} → peak ${saturated.peak.fds} → ${saturated.after.fds}`,
);
mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
writeFileSync(
  join(BENCH_DIR, 'results', 'soak.json'),
  `${JSON.stringify({ environment: environment(), phases: [unsaturated, saturated] }, null, 2)}\n`,
);
const failed = [unsaturated, saturated].some((p) => p.unexpected.length > 0) || (unsaturated.byStatus['503'] ?? 0) > 0;
if (failed) {
  for (const p of [unsaturated, saturated])
    for (const u of p.unexpected.slice(0, 10)) console.error(`  unexpected (queue ${p.queue}): ${u.kind} → ${u.status} ${u.detail}`);
  process.exitCode = 1;
}
