import type { Statement } from 'better-sqlite3';
import type { Db } from './openDatabase.js';

const statements = new WeakMap<Db, Map<string, Statement>>();

/**
 * `db.prepare(sql)`, compiled once per database and reused: every request runs the same few
 * statements, and compiling them again each time was a visible share of a session's cost.
 */
export function prepared(db: Db, sql: string): Statement {
  let byText = statements.get(db);
  if (!byText) statements.set(db, (byText = new Map()));
  let statement = byText.get(sql);
  if (!statement) byText.set(sql, (statement = db.prepare(sql)));
  return statement;
}
