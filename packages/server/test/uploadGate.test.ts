import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientKey, createUploadGate } from '../src/admission/UploadGate.js';
import { ApiError } from '../src/errors/ApiError.js';

const hextet = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));

describe('clientKey', () => {
  it('an IPv6 address counts as its /64, however it is written; IPv4 (mapped or not) as itself', () => {
    fc.assert(
      fc.property(fc.array(hextet, { minLength: 8, maxLength: 8 }), fc.array(hextet, { minLength: 4, maxLength: 4 }), (full, otherHost) => {
        const same = [...full.slice(0, 4), ...otherHost];
        expect(clientKey(full.join(':'))).toBe(clientKey(same.join(':')));
        expect(clientKey(full.join(':'))).toBe(
          `${full
            .slice(0, 4)
            .map((g) => Number.parseInt(g, 16).toString(16))
            .join(':')}::/64`,
        );
      }),
    );
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:db8:0:1::1')).not.toBe(clientKey('2001:db8::1'));
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey(undefined)).toBe('unknown');
  });
});

describe('createUploadGate', () => {
  it('lets each client in up to its cap, apart from the others, and again once one of its bodies is in', () => {
    const gate = createUploadGate({ perClient: 2 });
    const a1 = gate.enter('a'),
      a2 = gate.enter('a');
    gate.enter('b');
    expect(() => gate.enter('a')).toThrow(ApiError);
    try {
      gate.enter('a');
    } catch (err) {
      expect(err).toMatchObject({ status: 429, code: 'too_many_uploads', headers: { 'Retry-After': '5' } });
    }
    expect(gate.receiving).toBe(3);
    a1();
    a1();
    const a3 = gate.enter('a');
    expect(gate.receiving).toBe(3);
    a2();
    a3();
    expect(gate.receiving).toBe(1);
  });
});
