import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// `ars_<id>_<secret>`: the id finds the row without revealing anything; only the secret's
// SHA-256 is stored (a 256-bit random secret needs no slow hash: it cannot be guessed offline).
const KEY_PATTERN = /^ars_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const DUMMY_HASH = createHash('sha256').update('no key').digest();

/** A new key: what the store keeps (`id`, `secretHash`) and what the operator is shown once (`key`). */
export interface NewApiKey {
  id: string;
  secretHash: Buffer;
  key: string;
}

/**
 * Draws a new key.
 *
 * @example
 * ```ts
 * const { id, secretHash, key } = newApiKey(); // key → 'ars_3f…_Qk…'
 * ```
 */
export function newApiKey(): NewApiKey {
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { id, secretHash: hashSecret(secret), key: `ars_${id}_${secret}` };
}

/** The account name, trimmed; a RangeError names what is allowed. */
export function checkedAccountName(accountName: string): string {
  const name = accountName.trim();
  if (!/^[\p{L}\p{N}._@ -]{1,100}$/u.test(name))
    throw new RangeError(`account name ${JSON.stringify(accountName)}: use 1–100 letters, digits, spaces or . _ @ -`);
  return name;
}

/** The id of a key given whole, or the text itself (taken as an id). */
export function keyIdOf(keyOrId: string): string {
  return KEY_PATTERN.exec(keyOrId)?.[1] ?? keyOrId;
}

/** The id part of a presented key, or `undefined` when it does not parse (the row lookup is skipped). */
export function presentedKeyId(presented: string): string | undefined {
  return KEY_PATTERN.exec(presented)?.[1];
}

/**
 * Whether a presented key's secret hashes to `stored`. Compared in constant time, and a key that
 * does not parse or has no row costs the same hash and comparison, so timing tells nothing about
 * which part was wrong.
 */
export function secretMatches(presented: string, stored: Buffer | undefined): boolean {
  const given = hashSecret(KEY_PATTERN.exec(presented)?.[2] ?? presented);
  return timingSafeEqual(given, stored ?? DUMMY_HASH) && stored !== undefined;
}

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
