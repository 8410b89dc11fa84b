import { resolve } from 'node:path';
import type { ArBudget, SharedPoolOptions } from '@arsession/convert/pool';
import { ConfigError, SETTINGS, type Setting } from './SETTINGS.js';

export { ConfigError, SETTINGS, shownDefault, type Setting } from './SETTINGS.js';

/** Everything an operator can set: one field per entry of {@link SETTINGS}, each with its environment variable. */
export type ServerConfig = { -readonly [K in keyof typeof SETTINGS]: ReturnType<(typeof SETTINGS)[K]['read']> };

/** Each setting's default, as its entry in {@link SETTINGS} declares it. */
function defaultsOf<S extends Record<string, Setting<unknown>>>(settings: S): { [K in keyof S]: S[K]['default'] } {
  return Object.fromEntries(Object.entries(settings).map(([key, setting]) => [key, setting.default])) as {
    [K in keyof S]: S[K]['default'];
  };
}

/** The embedded defaults: `arsession serve` with no environment runs on these. */
export const SERVER_CONFIG_DEFAULTS: Readonly<ServerConfig> = defaultsOf(SETTINGS);

/** Environment variable of each setting. */
export const CONFIG_ENV: Readonly<Record<keyof ServerConfig, string>> = Object.fromEntries(
  Object.entries(SETTINGS).map(([key, setting]) => [key, setting.env]),
) as Record<keyof ServerConfig, string>;

/**
 * Reads the configuration from environment variables over {@link SERVER_CONFIG_DEFAULTS}; a value
 * that does not parse stops the start with a {@link ConfigError} rather than falling back silently.
 * An unset or empty variable leaves its default.
 *
 * @example
 * ```ts
 * const config = readServerConfig({ PORT: '9000', ARSESSION_DATA_DIR: '/var/lib/arsession' });
 * config.port; // → 9000
 * ```
 */
export function readServerConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  const read = Object.fromEntries(
    Object.entries(SETTINGS).map(([key, setting]: [string, Setting<unknown>]) => {
      const raw = env[setting.env];
      return [key, raw === undefined || raw === '' ? setting.default : setting.read(raw, setting)];
    }),
  ) as ServerConfig;
  const merged = { ...read, ...overrides };
  if (merged.port > 65535) throw new ConfigError(CONFIG_ENV.port, `port ${merged.port} is out of range`);
  if (merged.metricsPort !== undefined && merged.metricsPort > 65535)
    throw new ConfigError(CONFIG_ENV.metricsPort, `port ${merged.metricsPort} is out of range`);
  return { ...merged, dataDir: resolve(merged.dataDir), publicUrl: merged.publicUrl?.replace(/\/+$/, '') };
}

/**
 * The AR budget conversions are held to, from the configuration; `false` when it is off.
 *
 * @example
 * ```ts
 * arBudgetOf(readServerConfig({ ARSESSION_BUDGET_TRIANGLES: '300000' })); // → { triangles: 300000, meshPrims: 200, … }
 * ```
 */
export function arBudgetOf(config: ServerConfig): ArBudget | false {
  return config.arBudget
    ? {
        triangles: config.budgetTriangles,
        meshPrims: config.budgetMeshPrims,
        textureSize: config.budgetTexturePx,
        packageBytes: config.budgetPackageBytes,
      }
    : false;
}

/**
 * How this node's conversion pool runs its workers, from the configuration: in processes each held
 * to the conversion memory bound by the operating system, or in threads. `workerScript` (fault
 * tests) is a thread's.
 *
 * @example
 * ```ts
 * configureConversionPool(conversionPoolOf(config));
 * ```
 */
export function conversionPoolOf(config: ServerConfig, workerScript?: URL): SharedPoolOptions {
  if (workerScript) return { workerScript, isolation: 'thread' };
  return config.conversionIsolation === 'process'
    ? { isolation: 'process', memoryLimitMb: Math.ceil(config.conversionMemoryBytes / 2 ** 20) }
    : { isolation: 'thread' };
}
