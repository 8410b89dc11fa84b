import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_ENV, readServerConfig, SERVER_CONFIG_DEFAULTS, SETTINGS } from '../src/config/ServerConfig.js';
import { echoedConfig } from '../src/config/echoedConfig.js';
import { settingsTable } from '../src/config/settingsTable.js';

const SERVER_DOC = join(import.meta.dirname, '..', '..', '..', 'docs', 'SERVER.md');

describe('the settings, declared once', () => {
  it("docs/SERVER.md's settings table is the one SETTINGS makes", () => {
    const doc = readFileSync(SERVER_DOC, 'utf8');
    const table = /<!-- settings -->\n([\s\S]*?)\n<!-- \/settings -->/.exec(doc)?.[1];
    // On a difference, the expected table is printed whole: paste it between the markers.
    expect(table, 'docs/SERVER.md has no table between <!-- settings --> and <!-- /settings -->').toBeDefined();
    expect(table).toBe(settingsTable());
  });

  it('every setting has a variable of its own, a default the reader would give back, and a meaning', () => {
    const variables = Object.values(CONFIG_ENV);
    expect(new Set(variables).size).toBe(variables.length);
    // The defaults, written in their variables' units and read back, are the defaults.
    const echoed = echoedConfig(SERVER_CONFIG_DEFAULTS);
    const env = Object.fromEntries(
      Object.entries(echoed).flatMap(([variable, value]) =>
        value === undefined || (Array.isArray(value) && value.length === 0)
          ? []
          : [[variable, Array.isArray(value) ? value.join(',') : String(value)]],
      ),
    );
    const { dataDir, ...read } = readServerConfig(env);
    const { dataDir: defaultDir, ...defaults } = SERVER_CONFIG_DEFAULTS;
    expect(read).toEqual(defaults);
    for (const setting of Object.values(SETTINGS)) expect(setting.doc.length, setting.env).toBeGreaterThan(8);
  });

  it('a value in a unit is held in bytes and echoed in the unit', () => {
    const config = readServerConfig({ ARSESSION_MAX_FILE_MB: '0.5', ARSESSION_MIN_BODY_KBPS: '16' });
    expect(config.maxFileBytes).toBe(512 * 1024);
    expect(config.minBodyBytesPerSecond).toBe(16 * 1024);
    expect(echoedConfig(config)).toMatchObject({ ARSESSION_MAX_FILE_MB: 0.5, ARSESSION_MIN_BODY_KBPS: 16 });
  });
});
