import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/**
 * better-sqlite3 as this runtime can load it. Release 13 is built on Node-API 10 (Node 22 and
 * later); release 12 subclasses `node::ObjectWrap`, whose destructor Node 24 made assert on a live
 * environment, so its statements abort the process when collected late (WiseLibs/better-sqlite3#1515).
 * Node 20 has Node-API 9 only and keeps 12 (installed as `better-sqlite3-napi9`) until it is dropped.
 */
export const Database: typeof BetterSqlite3 =
  Number(process.versions.napi) >= 10
    ? (require('better-sqlite3') as typeof BetterSqlite3)
    : (require('better-sqlite3-napi9') as typeof BetterSqlite3);
