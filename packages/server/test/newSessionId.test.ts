// Session ids: 128 random bits each, drawn in blocks, never handed out twice.
import { describe, expect, it } from 'vitest';
import { newSessionId } from '../src/session/newSessionId.js';

describe('newSessionId', () => {
  it('gives 22 base64url characters (128 bits), all distinct across several draws of the pool', () => {
    const ids = Array.from({ length: 1000 }, newSessionId);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Not a counter: each of the 128 bits is set in some ids and clear in others.
    const ones = new Array<number>(128).fill(0);
    for (const id of ids)
      Buffer.from(id, 'base64url').forEach((byte, i) => {
        for (let b = 0; b < 8; b++) ones[i * 8 + b]! += (byte >> b) & 1;
      });
    expect(ones.every((n) => n > 350 && n < 650)).toBe(true);
  });
});
