import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { watchDescendantsPeak } from '../bench/src/ladder/descendantsPeak.js';

/** A shell whose child node process maps `mb` MB, holds it a moment, and exits. */
function shellWithChild(mb: number) {
  const script = `const b = Buffer.alloc(${mb} * 2 ** 20, 1); setTimeout(() => b.length, 800);`;
  return spawn('/bin/sh', ['-c', `"$0" -e "$1"; true`, process.execPath, script], { stdio: 'ignore' });
}

describe('watchDescendantsPeak (the ladder on the server)', () => {
  it("keeps the most data a grandchild mapped, not its parent's", async () => {
    const shell = shellWithChild(300);
    const watch = watchDescendantsPeak(process.pid, { intervalMs: 20 });
    await new Promise((resolve) => shell.once('exit', resolve));
    const peak = watch.stop();
    expect(peak).toBeGreaterThan(300);
    expect(peak).toBeLessThan(300 + 1000);
  });

  it('reads nothing of a process with no children', () => {
    const watch = watchDescendantsPeak(process.pid, { intervalMs: 20 });
    expect(watch.stop()).toBe(0);
  });
});
