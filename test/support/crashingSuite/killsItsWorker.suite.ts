import { it, expect } from 'vitest';
it('before', () => { expect(1).toBe(1); });
it('kills its worker', async () => { process.kill(process.pid, 'SIGKILL'); await new Promise(r => setTimeout(r, 1000)); });
it('after', () => { expect(1).toBe(1); });
