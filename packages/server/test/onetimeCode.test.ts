import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readServerConfig } from '../src/config/ServerConfig.js';
import { groupedOnetimeCode, newOnetimeCode, ONETIME_CODE_DIGITS, readOnetimeCode } from '../src/session/onetimeCode.js';

describe('one-time codes', () => {
  it(
    'guessing does not pay: 1,000 addresses guessing for a day against 100,000 ' +
      'live codes claim fewer than 0.01 sessions in expectation (the defaults)',
    () => {
      const config = readServerConfig({});
      const attackers = 1000,
        live = 100_000;
      // Each address may fail this often in a day, whatever its per-minute and per-hour pace.
      const failuresPerDay = Math.min(
        config.failedClaimsPerClientPerDay,
        24 * config.failedClaimsPerClientPerHour,
        24 * 60 * config.claimsPerClientPerMinute,
      );
      const expected = (attackers * failuresPerDay * live) / 10 ** ONETIME_CODE_DIGITS;
      expect(expected).toBeLessThan(0.01);
      expect(expected).toBe(0.005);
    },
  );

  it('are twelve digits, leading zeros kept, every digit used in every place', () => {
    const codes = Array.from({ length: 4000 }, () => newOnetimeCode());
    for (const c of codes) expect(c).toMatch(/^\d{12}$/);
    for (let place = 0; place < 12; place++) expect(new Set(codes.map((c) => c[place])).size, `place ${place}`).toBe(10);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('are read back as typed: grouped with spaces or dashes, or not at all; anything else is not a code', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{12}$/), fc.constantFrom(' ', '-', ''), (code, sep) => {
        expect(readOnetimeCode(code)).toBe(code);
        expect(readOnetimeCode(groupedOnetimeCode(code).replace(/ /g, sep))).toBe(code);
        expect(readOnetimeCode(` ${groupedOnetimeCode(code)} `)).toBe(code);
      }),
    );
    for (const bad of ['', '12345', '0421 9937 118', '0421 9937 11800', '04219937118a', '0421_9937_1180', '１２３４５６７８９０１２'])
      expect(readOnetimeCode(bad), bad).toBeUndefined();
    expect(groupedOnetimeCode('042199371180')).toBe('0421 9937 1180');
  });
});
