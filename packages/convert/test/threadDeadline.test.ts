// The deadline of a conversion in the process's own thread (`@arsession/convert/thread`): a thread
// stuck in one synchronous call — in WASM, as a parser looping on a hostile file is — is ended at
// the deadline and the process still reports and exits as it chooses; one that finishes in time
// is not held up by the watchdog. Each case is a process of its own, as the CLI is.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
// (module (func (export "spin") (loop (br 0))))
const SPIN_WASM = '[0,97,115,109,1,0,0,0,1,4,1,96,0,0,3,2,1,0,7,8,1,4,115,112,105,110,0,0,10,9,1,7,0,3,64,12,0,11,11]';

/** Runs a module script in a fresh process, from the package folder (so it imports the built bundle). */
function run(script: string): { status: number | null; stdout: string; stderr: string; ms: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import { armThreadDeadline } from '@arsession/convert/thread';\n${script}`], { cwd: PACKAGE, encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

describe('armThreadDeadline', () => {
  it('ends a thread spinning in WASM at the deadline; the process then reports and exits with its own code', () => {
    const r = run(`
      const { instance } = await WebAssembly.instantiate(new Uint8Array(${SPIN_WASM}));
      const deadline = armThreadDeadline(300);
      deadline.expired.then(() => { process.stdout.write('expired'); process.exit(7); });
      instance.exports.spin();
      process.stdout.write('returned');
    `);
    // Nothing else said: the watchdog let go of the thread before it went on (an open inspector
    // session would hold the exit with "Waiting for the debugger to disconnect...").
    expect(r).toMatchObject({ status: 7, stdout: 'expired', stderr: '' });
  });

  it('ends a JavaScript loop that never yields the same way', () => {
    const r = run(`
      const deadline = armThreadDeadline(300);
      deadline.expired.then(() => { process.stdout.write('expired'); process.exit(7); });
      for (;;) {}
    `);
    expect(r).toMatchObject({ status: 7, stdout: 'expired' });
  });

  it('work that awaits forever is told without being ended', () => {
    const r = run(`
      const deadline = armThreadDeadline(300);
      let alive = false;
      deadline.expired.then(() => { process.stdout.write(alive ? 'told, still running' : 'told'); process.exit(7); });
      setInterval(() => { alive = true; }, 10);
      await new Promise(() => {});
    `);
    expect(r).toMatchObject({ status: 7, stdout: 'told, still running' });
  });

  it('settled in time, it neither fires nor keeps the process alive', () => {
    const r = run(`
      const deadline = armThreadDeadline(5000);
      deadline.expired.then(() => process.stdout.write('expired'));
      await new Promise((r) => setTimeout(r, 50));
      process.stdout.write(await deadline.settle() ? 'in time' : 'late');
    `);
    expect(r).toMatchObject({ status: 0, stdout: 'in time' });
    expect(r.ms).toBeLessThan(5000);
  });

  it('work that ends after the deadline, before the watchdog could end it, is late, and nothing is ended after', () => {
    // The deadline is counted from the call, not from the watchdog's start; and work that returns
    // while the watchdog waits for an answer must not be ended later, mid-way through what follows.
    const r = run(`
      const deadline = armThreadDeadline(1);
      const until = Date.now() + 60;
      while (Date.now() < until) {}
      const inTime = await deadline.settle();
      await new Promise((r) => setTimeout(r, 400));
      process.stdout.write(inTime ? 'in time' : 'late, still running');
    `);
    expect(r).toMatchObject({ status: 0, stdout: 'late, still running', stderr: '' });
  });

  it('refuses to arm off the main thread, where it would end the wrong one', () => {
    const r = run(`
      const { Worker } = await import('node:worker_threads');
      const w = new Worker("Promise.all([import('@arsession/convert/thread'), import('node:worker_threads')]).then(([m, { parentPort }]) => { try { m.armThreadDeadline(100); } catch (e) { parentPort.postMessage(e.message); } })", { eval: true });
      w.on('message', (m) => { process.stdout.write(m); process.exit(0); });
    `);
    expect(r.stdout).toMatch(/only the main thread/);
  });
});
