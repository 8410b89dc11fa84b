import { it, expect } from 'vitest';
// First, so no result of this file can have reached the runner before the worker dies.
it('kills its worker', async () => {
  process.kill(process.pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 1000));
});
it('after, one', () => {
  expect(1).toBe(1);
});
it('after, two', () => {
  expect(1).toBe(1);
});
