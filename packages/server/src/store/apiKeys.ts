import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from './openDatabase.js';
import { prepared } from './prepared.js';

/** An account a valid key maps to. */
export interface Account {
  id: number;
  name: string;
}

/** A key as `keys list` shows it: never the secret, which is only printed once at creation. */
export interface ApiKeyInfo {
  id: string;
  account: string;
  createdAt: string;
  revokedAt: string | null;
}

// `ars_<id>_<secret>`: the id finds the row without revealing anything; only the secret's
// SHA-256 is stored (a 256-bit random secret needs no slow hash: it cannot be guessed offline).
const KEY_PATTERN = /^ars_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const DUMMY_HASH = createHash('sha256').update('no key').digest();

/**
 * Issues a key for an account (created on first use) and returns it; it is shown only this once.
 *
 * @example
 * ```ts
 * const key = createApiKey(db, 'acme'); // → 'ars_3f…_Qk…'
 * ```
 */
export function createApiKey(db: Db, accountName: string, now = Date.now()): string {
  const name = accountName.trim();
  if (!/^[\p{L}\p{N}._@ -]{1,100}$/u.test(name)) throw new RangeError(`account name ${JSON.stringify(accountName)}: use 1–100 letters, digits, spaces or . _ @ -`);
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  db.transaction(() => {
    prepared(db, 'INSERT INTO accounts (name, created_at) VALUES (?, ?) ON CONFLICT(name) DO NOTHING').run(name, now);
    const account = prepared(db, 'SELECT id FROM accounts WHERE name = ?').get(name) as { id: number };
    prepared(db, 'INSERT INTO api_keys (id, account_id, secret_hash, created_at) VALUES (?, ?, ?, ?)').run(id, account.id, hashSecret(secret), now);
  })();
  return `ars_${id}_${secret}`;
}

/** Revokes a key (given whole, or by its id); returns whether a live key was revoked. */
export function revokeApiKey(db: Db, keyOrId: string, now = Date.now()): boolean {
  const id = KEY_PATTERN.exec(keyOrId)?.[1] ?? keyOrId;
  return prepared(db, 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id).changes === 1;
}

/** Every key, newest first. */
export function listApiKeys(db: Db): ApiKeyInfo[] {
  const rows = prepared(db, 
    'SELECT k.id, a.name AS account, k.created_at, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY k.created_at DESC, k.id',
  ).all() as Array<{ id: string; account: string; created_at: number; revoked_at: number | null }>;
  return rows.map((r) => ({
    id: r.id, account: r.account, createdAt: new Date(r.created_at).toISOString(),
    revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
  }));
}

/**
 * The account of a presented key, or `undefined` for a malformed, unknown or revoked one. The
 * secret is compared in constant time, and a key that does not even parse costs the same hash
 * and comparison, so timing tells nothing about which part was wrong.
 */
export function authenticateApiKey(db: Db, presented: string): Account | undefined {
  const match = KEY_PATTERN.exec(presented);
  const row = match
    ? (prepared(db, 'SELECT k.secret_hash, k.revoked_at, a.id, a.name FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ?')
      .get(match[1]) as { secret_hash: Buffer; revoked_at: number | null; id: number; name: string } | undefined)
    : undefined;
  const given = hashSecret(match?.[2] ?? presented);
  const equal = timingSafeEqual(given, row?.secret_hash ?? DUMMY_HASH);
  return equal && row && row.revoked_at === null ? { id: row.id, name: row.name } : undefined;
}

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
