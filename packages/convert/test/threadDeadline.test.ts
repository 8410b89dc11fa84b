// The deadline of a conversion in the process's own thread (`@arsession/convert/thread`): at the
// deadline the process ends with its report and exit code, wherever its main thread is — held in
// one synchronous call in WASM, as a parser looping on a hostile file is, spinning in JavaScript,
// or waiting — and nothing of the main thread runs after; work settled in time is not held up.
// Each case is a process of its own, as the CLI is.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
// (module (func (export "spin") (loop (br 0))))
const SPIN_WASM = '[0,97,115,109,1,0,0,0,1,4,1,96,0,0,3,2,1,0,7,8,1,4,115,112,105,110,0,0,10,9,1,7,0,3,64,12,0,11,11]';
const ARM = (ms: number) => `const deadline = armThreadDeadline(${ms}, { report: { fd: 1, text: 'late\\n' }, exitCode: 7 });`;

/** Runs a module script in a fresh process, from the package folder (so it imports the built bundle). */
function run(script: string): { status: number | null; stdout: string; stderr: string; ms: number } {
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `import { armThreadDeadline } from '@arsession/convert/thread';\n${script}`],
    { cwd: PACKAGE, encoding: 'utf8', timeout: 20_000 },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

describe('armThreadDeadline', () => {
  it('ends a process whose thread spins in WASM at the deadline, with its report and code and nothing else', () => {
    const r = run(`
      const { instance } = await WebAssembly.instantiate(new Uint8Array(${SPIN_WASM}));
      ${ARM(300)}
      instance.exports.spin();
      process.stdout.write('returned');
    `);
    // Nothing else said: not the inspector's note about its session, nor anything of the main thread.
    expect(r).toMatchObject({ status: 7, stdout: 'late\n', stderr: '' });
  });

  it('ends a JavaScript loop that never yields the same way', () => {
    const r = run(`${ARM(300)}\n for (;;) {}`);
    expect(r).toMatchObject({ status: 7, stdout: 'late\n', stderr: '' });
  });

  it('ends work that awaits forever the same way', () => {
    const r = run(`${ARM(300)}\n setInterval(() => {}, 10);\n await new Promise(() => {});`);
    expect(r).toMatchObject({ status: 7, stdout: 'late\n', stderr: '' });
  });

  it('settled in time, it neither fires nor keeps the process alive', () => {
    const r = run(`
      ${ARM(5000)}
      await new Promise((r) => setTimeout(r, 50));
      process.stdout.write(await deadline.settle() ? 'in time' : 'late');
    `);
    expect(r).toMatchObject({ status: 0, stdout: 'in time' });
    expect(r.ms).toBeLessThan(5000);
  });

  it('work that ends after the deadline, before the watchdog acted, is late, and the caller goes on to report it', () => {
    // The deadline is counted from the call, not from the watchdog's start.
    const r = run(`
      ${ARM(1)}
      const until = Date.now() + 60;
      while (Date.now() < until) {}
      const inTime = await deadline.settle();
      await new Promise((r) => setTimeout(r, 400));
      process.stdout.write(inTime ? 'in time' : 'late, reported by the caller');
    `);
    // Either the caller settled first (and goes on), or the watchdog had already taken it (and
    // the process ended with the report): never both, never neither.
    expect([
      { status: 0, stdout: 'late, reported by the caller' },
      { status: 7, stdout: 'late\n' },
    ]).toContainEqual({ status: r.status, stdout: r.stdout });
    expect(r.stderr).toBe('');
  });

  it("whatever the deadline and however busy the machine, exactly one of: the work's own output, or the report", async () => {
    // Two processes spinning beside each one, so the watchdog and the work compete for the cores.
    const load = Array.from({ length: 2 }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 120 }),
          fc.integer({ min: 0, max: 120 }),
          fc.constantFrom('wasm', 'sync', 'async'),
          async (deadlineMs, workMs, kind) => {
            const work =
              kind === 'wasm'
                ? `const until = Date.now() + ${workMs}; while (Date.now() < until) {}`
                : kind === 'sync'
                  ? `const until = Date.now() + ${workMs}; while (Date.now() < until) { JSON.stringify({ a: [1, 2, 3] }); }`
                  : `await new Promise((r) => setTimeout(r, ${workMs}));`;
            const r = run(
              `${ARM(deadlineMs)}\n ${work}\n const inTime = await deadline.settle();\n ` +
                `process.stdout.write(inTime ? 'done\\n' : 'refused\\n'); process.exit(inTime ? 0 : 1);`,
            );
            expect([
              { status: 0, stdout: 'done\n' },
              { status: 1, stdout: 'refused\n' },
              { status: 7, stdout: 'late\n' },
            ]).toContainEqual({ status: r.status, stdout: r.stdout });
            expect(r.stderr).toBe('');
          },
        ),
        { numRuns: 25 },
      );
    } finally {
      for (const p of load) p.kill();
    }
  });

  it('refuses to arm off the main thread, where it would end the wrong one', () => {
    const r = run(`
      const { Worker } = await import('node:worker_threads');
      const w = new Worker(\`
        Promise.all([import('@arsession/convert/thread'), import('node:worker_threads')]).then(([m, { parentPort }]) => {
          try { m.armThreadDeadline(100, { report: { fd: 1, text: '' }, exitCode: 1 }); }
          catch (e) { parentPort.postMessage(e.message); }
        })\`, { eval: true });
      w.on('message', (m) => { process.stdout.write(m); process.exit(0); });
    `);
    expect(r.stdout).toMatch(/only the main thread/);
  });
});

describe('convertInThisThread past its deadline', () => {
  it('ends the process with the refusal it was given, and writes no file, wherever the conversion was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arsession-deadline-'));
    const model = join(PACKAGE, '..', '..', '..', 'shared', 'corpus', 'ifc', 'ISSUE_021_Mini_Project.ifc');
    // 1 ms: while web-ifc loads; 100 ms: while it streams the 3 MB model's geometry (about a second here).
    for (const ms of [1, 100]) {
      const out = join(dir, `late-${ms}.usdz`);
      const r = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `
        import { readFileSync } from 'node:fs';
        import { convertInThisThread } from '@arsession/convert/thread';
        const c = convertInThisThread({
          timeoutMs: ${ms}, preloadIfc: true, fileName: 'mini.ifc',
          lateReport: (e) => ({ fd: 1, text: e.code + ': ' + e.message + '\\n' }), lateExitCode: 3,
        });
        const outputs = { usdzPath: ${JSON.stringify(out)}, outputs: ['usdz', 'glb'], glbPath: ${JSON.stringify(`${out}.glb`)} };
        try { await c.convert(readFileSync(${JSON.stringify(model)}), { fileName: 'mini.ifc', ...outputs }); console.log('converted'); }
        catch (e) { console.log('refused: ' + e.message); process.exit(1); }
      `,
        ],
        { cwd: PACKAGE, encoding: 'utf8', timeout: 30_000 },
      );
      const shown = `${ms} ms`;
      // The watchdog's report (exit 3) or, when the conversion came back late but first, the caller's own.
      expect([3, 1], r.stdout + r.stderr).toContain(r.status);
      expect(r.stdout).toMatch(
        new RegExp(
          `^(model_unreadable: |refused: )mini\\.ifc: the parser did not finish within ${shown}; the file is malformed or too complex\\n$`,
        ),
      );
      expect(r.stderr).toBe('');
      expect(existsSync(out)).toBe(false);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
