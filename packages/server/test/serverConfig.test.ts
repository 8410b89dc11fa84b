import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AR_BUDGET_DEFAULTS } from '@arsession/convert';
import { arBudgetOf, ConfigError, conversionPoolOf, readServerConfig } from '../src/config/ServerConfig.js';
import { conversionCacheVersion } from '../src/cache/ConversionCache.js';

describe('the AR budget settings', () => {
  it('default to the AR budget an iPhone opens smoothly', () => {
    expect(arBudgetOf(readServerConfig({}))).toEqual(AR_BUDGET_DEFAULTS);
  });

  it('each limit comes from its variable; ARSESSION_AR_BUDGET=false turns the budget off', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 1, max: 1e5 }),
        fc.integer({ min: 1, max: 16384 }),
        fc.integer({ min: 1, max: 4096 }),
        (triangles, prims, px, mb) => {
          const config = readServerConfig({
            ARSESSION_BUDGET_TRIANGLES: String(triangles),
            ARSESSION_BUDGET_MESH_PRIMS: String(prims),
            ARSESSION_BUDGET_TEXTURE_PX: String(px),
            ARSESSION_BUDGET_PACKAGE_MB: String(mb),
          });
          expect(arBudgetOf(config)).toEqual({ triangles, meshPrims: prims, textureSize: px, packageBytes: mb * 1024 * 1024 });
        },
      ),
    );
    expect(arBudgetOf(readServerConfig({ ARSESSION_AR_BUDGET: 'false' }))).toBe(false);
  });

  it('a limit that is not a positive number stops the start, naming its variable', () => {
    for (const [variable, value] of [
      ['ARSESSION_BUDGET_TRIANGLES', '0'],
      ['ARSESSION_BUDGET_MESH_PRIMS', '1.5'],
      ['ARSESSION_BUDGET_TEXTURE_PX', 'big'],
      ['ARSESSION_BUDGET_PACKAGE_MB', '-1'],
      ['ARSESSION_AR_BUDGET', 'maybe'],
    ]) {
      expect(() => readServerConfig({ [variable!]: value })).toThrow(ConfigError);
      expect(() => readServerConfig({ [variable!]: value })).toThrow(new RegExp(`^${variable}: `));
    }
  });

  it('conversions made under another budget are cached apart', () => {
    const versions = new Set([
      conversionCacheVersion(false),
      conversionCacheVersion(AR_BUDGET_DEFAULTS),
      conversionCacheVersion({ ...AR_BUDGET_DEFAULTS, triangles: 300_000 }),
      conversionCacheVersion({ ...AR_BUDGET_DEFAULTS, textureSize: 1024 }),
    ]);
    expect(versions.size).toBe(4);
  });
});

describe("the queue's inline bound", () => {
  it('is 1 MiB by default, any size from 0 to 64 MiB from ARSESSION_QUEUE_INLINE_BYTES, refused beyond or below by name', () => {
    expect(readServerConfig({}).queueInlineBytes).toBe(1024 * 1024);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 64 * 1024 * 1024 }), (bytes) => {
        expect(readServerConfig({ ARSESSION_QUEUE_INLINE_BYTES: String(bytes) }).queueInlineBytes).toBe(bytes);
      }),
    );
    for (const value of [String(64 * 1024 * 1024 + 1), '-1', '1e3.5', 'lots']) {
      expect(() => readServerConfig({ ARSESSION_QUEUE_INLINE_BYTES: value })).toThrow(/^ARSESSION_QUEUE_INLINE_BYTES: /);
    }
  });
});

describe('ARSESSION_TRUST_PROXY', () => {
  it('is off by default; takes a hop count, or addresses, CIDR ranges and range names', () => {
    expect(readServerConfig({}).trustProxy).toBe(false);
    expect(readServerConfig({ ARSESSION_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(readServerConfig({ ARSESSION_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(readServerConfig({ ARSESSION_TRUST_PROXY: '10.0.0.0/8, fd00::/8,loopback,192.0.2.7' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      'loopback',
      '192.0.2.7',
    ]);
  });

  it('an entry that is no address, range or name stops the start, naming the variable and the entry', () => {
    for (const bad of ['10.0.0.0/33', 'fd00::/129', 'proxy.internal', '10.0.0.1/8/2', 'yes', '-1']) {
      expect(() => readServerConfig({ ARSESSION_TRUST_PROXY: bad }), bad).toThrow(ConfigError);
      expect(() => readServerConfig({ ARSESSION_TRUST_PROXY: bad }), bad).toThrow(/ARSESSION_TRUST_PROXY/);
    }
  });
});

describe('where conversions run', () => {
  it(
    'in worker processes held whole to the conversion memory bound by ' + 'default; in threads when asked; anything else stops the start',
    () => {
      expect(conversionPoolOf(readServerConfig({}))).toEqual({ isolation: 'process', memoryLimitMb: 2048 });
      expect(conversionPoolOf(readServerConfig({ ARSESSION_CONVERSION_MEMORY_MB: '512' }))).toEqual({
        isolation: 'process',
        memoryLimitMb: 512,
      });
      expect(conversionPoolOf(readServerConfig({ ARSESSION_CONVERSION_ISOLATION: 'thread' }))).toEqual({ isolation: 'thread' });
      expect(() => readServerConfig({ ARSESSION_CONVERSION_ISOLATION: 'container' })).toThrow(/^ARSESSION_CONVERSION_ISOLATION: /);
    },
  );
});
