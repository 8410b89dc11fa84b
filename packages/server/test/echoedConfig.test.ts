import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { echoedConfig, maskUrlSecrets, readServerConfig } from '../src/index.js';

describe('maskUrlSecrets', () => {
  it('hides the password of the user info and of every secret-named query parameter, and nothing else', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,12}$/);
    fc.assert(
      fc.property(
        word,
        word,
        word,
        fc.constantFrom('password', 'sslpassword', 'PASSWORD', 'pwd', 'secret', 'access_token', 'api_key'),
        (user, secret, other, name) => {
          const masked = maskUrlSecrets(
            `postgres://${user}:${secret}@db.internal:5432/arsession?sslmode=require&${name}=${secret}&application_name=${other}`,
          );
          expect(masked).toBe(`postgres://${user}:***@db.internal:5432/arsession?sslmode=require&${name}=***&application_name=${other}`);
        },
      ),
    );
    expect(maskUrlSecrets('redis://cache:6379/0')).toBe('redis://cache:6379/0');
  });

  it("the start-up echo of a configuration holds no password, in the URL's user info or its query", () => {
    const config = readServerConfig(
      { ARSESSION_DATABASE_URL: 'postgres://app@db/arsession?password=hunter2', ARSESSION_REDIS_URL: 'redis://:hunter3@cache:6379' },
      { dataDir: '/tmp/x' },
    );
    const echoed = JSON.stringify(echoedConfig(config));
    expect(echoed).not.toMatch(/hunter/);
    expect(echoed).toContain('postgres://app@db/arsession?password=***');
  });
});

describe('echoedConfig', () => {
  it("echoes every size in its variable's unit: what was set reads back as set", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 4096 }),
        fc.integer({ min: 1, max: 10_000 }),
        (fileMb, memoryMb, kbps) => {
          const echoed = echoedConfig(
            readServerConfig(
              {
                ARSESSION_MAX_FILE_MB: String(fileMb),
                ARSESSION_CONVERSION_MEMORY_MB: String(memoryMb),
                ARSESSION_MIN_BODY_KBPS: String(kbps),
              },
              { dataDir: '/tmp/x' },
            ),
          );
          expect(echoed).toMatchObject({
            ARSESSION_MAX_FILE_MB: fileMb,
            ARSESSION_CONVERSION_MEMORY_MB: memoryMb,
            ARSESSION_MIN_BODY_KBPS: kbps,
          });
        },
      ),
    );
    expect(echoedConfig(readServerConfig({ ARSESSION_MAX_FILE_MB: '0.5' }, { dataDir: '/tmp/x' })).ARSESSION_MAX_FILE_MB).toBe(0.5);
    expect(echoedConfig(readServerConfig({ PORT: '9000' }, { dataDir: '/tmp/x' })).PORT).toBe(9000);
  });
});
