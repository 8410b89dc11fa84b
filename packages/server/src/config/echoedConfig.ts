import { CONFIG_ENV, type ServerConfig } from './ServerConfig.js';

/**
 * The configuration as the start-up log echoes it, by environment variable name and in that
 * variable's unit (`ARSESSION_MAX_FILE_MB`: 200, not the bytes it holds): passwords in URLs (user
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
      const name = CONFIG_ENV[k as keyof ServerConfig];
      return [name, typeof v === 'number' ? inUnitOf(name, v) : withoutSecrets(v, k)];
    }),
  );
}

/** Bytes per unit of the variables whose unit their name ends in; the rest are as they are held. */
const UNITS: ReadonlyArray<[RegExp, number]> = [
  [/_MB$/, 1024 * 1024],
  [/_KBPS$/, 1024],
];

/** A number held in bytes, in the unit of the variable `name`, to a millionth of it (set in that unit, it was rounded to whole bytes). */
function inUnitOf(name: string, value: number): number {
  const unit = UNITS.find(([suffix]) => suffix.test(name))?.[1];
  return unit ? Math.round((value / unit) * 1e6) / 1e6 : value;
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
