import { expect, it } from 'vitest';
it('expects two and gets one', () => {
  expect(1).toBe(2);
});
