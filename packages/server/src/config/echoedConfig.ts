import type { ServerConfig } from './ServerConfig.js';
import { inUnitOf, SETTINGS, type Setting } from './SETTINGS.js';

/**
 * The configuration as the start-up log echoes it, by environment variable name and in that
 * variable's unit (`ARSESSION_MAX_FILE_MB`: 512, not the bytes it holds): passwords in URLs (user
 * info, and query parameters such as libpq's `?password=`) replaced by `***`, the S3 secret key
 * hidden.
 *
 * @example
 * ```ts
 * log.info({ config: echoedConfig(config) }, 'arsession listening');
 * ```
 */
export function echoedConfig(config: ServerConfig): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(config).map(([k, v]) => {
      const setting: Setting<unknown> = SETTINGS[k as keyof ServerConfig];
      return [setting.env, typeof v === 'number' ? inUnitOf(setting, v) : withoutSecrets(v, k)];
    }),
  );
}

/**
 * Query parameters that hold a secret: libpq's `password` and `sslpassword`, and whatever names a
 * password, secret, token or key (`pass`, `pwd`, `access_token`, `api_key`, …).
 */
const SECRET_PARAMETER = /pass|pwd|secret|token|key|credential/i;

/** A setting as the start-up log echoes it: passwords in URLs replaced by `***`, secret keys hidden. */
function withoutSecrets(value: unknown, key?: string): unknown {
  if (key === 's3SecretAccessKey' && value !== undefined) return '***';
  if (typeof value !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  return maskUrlSecrets(value);
}

/**
 * A URL with its secrets replaced by `***`: the password of its user info and the value of every
 * query parameter named like a secret ({@link SECRET_PARAMETER}). Text that is not a URL is
 * masked whole when it holds anything like a secret, since it cannot be taken apart.
 *
 * @example
 * ```ts
 * maskUrlSecrets('postgres://app:s3cret@db/arsession?password=x&sslmode=require');
 * // → 'postgres://app:***@db/arsession?password=***&sslmode=require'
 * ```
 */
export function maskUrlSecrets(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return /@|pass|pwd|secret|token|key/i.test(text) ? '***' : text;
  }
  if (url.password) url.password = '***';
  for (const name of [...new Set(url.searchParams.keys())]) if (SECRET_PARAMETER.test(name)) url.searchParams.set(name, '***');
  // URLSearchParams writes *** as %2A%2A%2A; the log reads better with the stars.
  return url.toString().replace(/%2A%2A%2A/g, '***');
}
