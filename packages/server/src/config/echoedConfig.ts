import { CONFIG_ENV, type ServerConfig } from './ServerConfig.js';

/**
 * The configuration as the start-up log echoes it, by environment variable name: passwords in
 * URLs replaced by `***`, the S3 secret key hidden.
 *
 * @example
 * ```ts
 * log.info({ config: echoedConfig(config) }, 'arsession listening');
 * ```
 */
export function echoedConfig(config: ServerConfig): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).map(([k, v]) => [CONFIG_ENV[k as keyof ServerConfig], withoutSecrets(v, k)]));
}

/** A setting as the start-up log echoes it: passwords in URLs replaced by `***`, secret keys hidden. */
function withoutSecrets(value: unknown, key?: string): unknown {
  if (key === 's3SecretAccessKey' && value !== undefined) return '***';
  if (typeof value !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return value;
  }
}
