import type { Account, ApiKeyInfo } from '../SessionStore.js';
import { checkedAccountName, keyIdOf, newApiKey, presentedKeyId, secretMatches } from '../apiKeySecrets.js';
import type { Db } from './openDatabase.js';
import { prepared } from './prepared.js';

/**
 * Issues a key for an account (created on first use) and returns it; it is shown only this once.
 *
 * @example
 * ```ts
 * const key = createApiKey(db, 'acme'); // → 'ars_3f…_Qk…'
 * ```
 */
export function createApiKey(db: Db, accountName: string, now = Date.now()): string {
  const name = checkedAccountName(accountName);
  const { id, secretHash, key } = newApiKey();
  db.transaction(() => {
    prepared(db, 'INSERT INTO accounts (name, created_at) VALUES (?, ?) ON CONFLICT(name) DO NOTHING').run(name, now);
    const account = prepared(db, 'SELECT id FROM accounts WHERE name = ?').get(name) as { id: number };
    prepared(db, 'INSERT INTO api_keys (id, account_id, secret_hash, created_at) VALUES (?, ?, ?, ?)').run(id, account.id, secretHash, now);
  })();
  return key;
}

/** Revokes a key (given whole, or by its id); returns whether a live key was revoked. */
export function revokeApiKey(db: Db, keyOrId: string, now = Date.now()): boolean {
  const id = keyIdOf(keyOrId);
  return prepared(db, 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id).changes === 1;
}

/** Every key, newest first. */
export function listApiKeys(db: Db): ApiKeyInfo[] {
  const rows = prepared(
    db,
    'SELECT k.id, a.name AS account, k.created_at, k.revoked_at FROM api_keys ' +
      'k JOIN accounts a ON a.id = k.account_id ORDER BY k.created_at DESC, k.id',
  ).all() as Array<{ id: string; account: string; created_at: number; revoked_at: number | null }>;
  return rows.map((r) => ({
    id: r.id,
    account: r.account,
    createdAt: new Date(r.created_at).toISOString(),
    revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
  }));
}

/**
 * The account of a presented key, or `undefined` for a malformed, unknown or revoked one (the
 * secret compared in constant time: {@link secretMatches}).
 */
export function authenticateApiKey(db: Db, presented: string): Account | undefined {
  const id = presentedKeyId(presented);
  const row =
    id === undefined
      ? undefined
      : (prepared(
          db,
          'SELECT k.secret_hash, k.revoked_at, a.id, a.name FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ?',
        ).get(id) as { secret_hash: Buffer; revoked_at: number | null; id: number; name: string } | undefined);
  return secretMatches(presented, row?.secret_hash) && row && row.revoked_at === null ? { id: row.id, name: row.name } : undefined;
}
