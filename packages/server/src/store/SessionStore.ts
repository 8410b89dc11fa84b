import type { ModelFormat } from '@arsession/convert';
import type { AssetInfo, ModelFrame } from '../records/AssetInfo.js';
import type { StoredPlacement } from '../records/Placement.js';

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

/** A model an account saved by sending it with its key. */
export interface SavedModel {
  id: string;
  sessionId: string;
  sourceName: string;
  format: ModelFormat;
  bytes: number;
  sha256: string;
  createdAt: string;
}

/** Where a page of an account's saved models starts: after this model (the last of the page before). */
export interface SavedModelCursor {
  /** Its creation time, in ms since the epoch. */
  createdAt: number;
  id: string;
}

/** One page of an account's saved models, newest first. */
export interface SavedModelPage {
  models: SavedModel[];
  /** Where the next page starts; `undefined` on the last page. */
  next: SavedModelCursor | undefined;
}

/** What an account keeps already, as a request that saves more is measured against its quota. */
export interface SavedModelUsage {
  count: number;
  bytes: number;
  /** Of the hashes asked about, those the account has saved already (a model is stored once per content). */
  present: Set<string>;
}

/** What became of a key's request to end a session early. */
export type EndSessionOutcome = { ended: true; files: string[] } | { ended: false; reason: 'unknown' | 'not_yours' | 'expired' };

/** A file served under a session. */
export interface SessionFile {
  /** URL segment: `0.usdz`, `0.reality`, `reference_image.png`. */
  name: string;
  contentType: string;
  bytes: number;
  sha256: string;
  /** Name offered to a browser that saves it (from the uploaded name, made safe). */
  downloadName: string;
}

/** One delivered model, as the detail record lists it (without URLs, which depend on the host). */
export interface StoredAsset {
  order: number;
  sourceName: string;
  /** Everything else the detail shows for it (format, counts, bounds, file names, warnings…). */
  info: AssetInfo;
}

/** A session as stored. */
export interface SessionRecord {
  id: string;
  method: string;
  createdAt: number;
  expiresAt: number;
  onetimeCode: string;
  codeClaimed: boolean;
  accountId: number | null;
  placement: StoredPlacement;
  modelFrame: ModelFrame;
  files: SessionFile[];
  filesDeleted: boolean;
  assets: StoredAsset[];
}

/** A finished session as a store takes it: its code is drawn there. */
export type NewSession = Omit<SessionRecord, 'onetimeCode' | 'codeClaimed' | 'filesDeleted'>;

/** What a finished request saves to an account. */
export interface SavedModelInput {
  id: string;
  sourceName: string;
  format: ModelFormat;
  bytes: number;
  sha256: string;
  /** Its file's path under the models directory. */
  storedAs: string;
}

/** A file made for a session, staged outside the sessions directory until the session is committed. */
export interface StagedFile {
  /** Where it is now (on the same file system as the sessions directory). */
  from: string;
  /** Its name in the session (`0.usdz`, `reference_image.png`). */
  name: string;
}

/** Everything that makes a session exist: its files and its rows. */
export interface SessionCommit {
  record: NewSession;
  saved: readonly SavedModelInput[];
  files: readonly StagedFile[];
}

/** The outcome of presenting a one-time code. */
export type ClaimOutcome = { ok: true; session: { id: string; expiresAt: number }; retried?: true } | { ok: false };

/**
 * Who claims a code, so a retry of their own claim is answered again: a client whose answer was
 * lost (a site's flaky network) asks again with the same code and gets the same session.
 */
export interface Claimant {
  /** The client, as a digest (never its address). */
  key: string;
  /** A claim this client made at or after this time (ms) is answered again; one before, not. */
  retrySince: number;
}

/**
 * What became of a file offered to a committed session ({@link SessionStore.addFile}): added; a
 * file of that name there already (made by another request, or node, first); or the session gone
 * (expired, its files deleted, or never there).
 */
export type AddFileOutcome = 'added' | 'present' | 'gone';

/** A session whose files are due to go: expired, files still there. */
export interface ExpiredSession {
  id: string;
  /** The names of its files. */
  files: string[];
}

/**
 * Where sessions, one-time codes, accounts, keys and saved models live: one role, with an engine
 * per folder (`sqlite/`: the embedded default, a file in the data directory; `postgres/`: shared by
 * every node of a cluster). The server is written once against this interface.
 *
 * Every operation is safe to call from any number of processes at once: a one-time code is
 * claimed once, a revoked key fails on the next request everywhere, two live sessions never share
 * a code.
 */
export interface SessionStore {
  /** Which engine this is (`sqlite`, `postgres`): for the start-up log and readiness. */
  readonly engine: string;
  /** The account of a presented API key, or `undefined` (unknown, malformed or revoked). */
  authenticate(key: string): Promise<Account | undefined>;
  /**
   * Makes a session exist: its staged files placed in the sessions directory under its id and its
   * rows written, together; resolves to its one-time code. On failure nothing of it remains. A
   * saved model whose content its account keeps already (two requests racing with the same file)
   * is not listed twice: the later row is dropped and its file left to the orphan clean-up.
   */
  commit(session: SessionCommit): Promise<string>;
  /**
   * Adds a file made after the commit (a package or preview derived on first request) to a live
   * session: its staged copy placed under the session's id (the files engine; `staged` is empty
   * when the object store holds it already) and its row listed, together. A session that lists
   * the name already keeps its own (`present`), an expired one takes nothing (`gone`); either way
   * nothing staged is placed.
   */
  addFile(id: string, file: SessionFile, staged: readonly StagedFile[], now?: number): Promise<AddFileOutcome>;
  /** A session by id with its assets in upload order, or `undefined`. */
  find(id: string): Promise<SessionRecord | undefined>;
  /**
   * Uses a one-time code: the live, unclaimed session holding it, made after `issuedAfter` (a code
   * lives less than its session: ARSESSION_CODE_TTL_S), marked claimed in the same step, by
   * `claimant` when given. A code that `claimant` itself claimed since `claimant.retrySince`, its
   * session still live, is answered again (`retried`): the same client retrying, nobody else.
   */
  claim(code: string, now?: number, issuedAfter?: number, claimant?: Claimant): Promise<ClaimOutcome>;
  /** A page of an account's saved models, newest first: at most `limit`, after `after`. */
  savedModels(accountId: number, page: { limit: number; after?: SavedModelCursor }): Promise<SavedModelPage>;
  /** One of an account's saved models with its path under the models store, or `undefined`. */
  savedModel(accountId: number, id: string): Promise<(SavedModel & { storedAs: string }) | undefined>;
  /** How many models, and bytes, an account keeps, and which of `sha256s` it has saved already. */
  savedModelUsage(accountId: number, sha256s: readonly string[]): Promise<SavedModelUsage>;
  /**
   * Forgets one of an account's saved models; resolves to its path under the models store (whose
   * file the caller deletes), or `undefined` when the account has no model of that id.
   */
  deleteSavedModel(accountId: number, id: string): Promise<string | undefined>;
  /**
   * Ends a live session of this account now (it expires: its code can no longer be claimed, its id
   * answers 410); resolves to the names of its files, which the caller deletes. Sessions made
   * without a key, or by another account, are `not_yours`.
   */
  endSession(id: string, accountId: number, now?: number): Promise<EndSessionOutcome>;
  /** Issues a key for an account (created on first use); the key is shown only this once. */
  createApiKey(accountName: string): Promise<string>;
  /** Revokes a key (given whole, or by its id); false when no such live key exists. */
  revokeApiKey(keyOrId: string): Promise<boolean>;
  listApiKeys(): Promise<ApiKeyInfo[]>;
  /** Sessions past their expiry whose files are still kept. */
  expiredWithFiles(now?: number): Promise<ExpiredSession[]>;
  /** Records that a session's files are gone (its id answers 410 from then on). */
  markFilesDeleted(id: string): Promise<void>;
  /** Forgets sessions expired longer ago than `retainMs` whose files are gone (their ids answer 404). */
  forgetOldSessions(retainMs: number, now?: number): Promise<number>;
  /** Which of these session ids have a row (start-up clean-up asks of every file it finds). */
  existingSessions(ids: readonly string[]): Promise<Set<string>>;
  /** Every saved model's path under the models directory. */
  savedModelFiles(): Promise<Set<string>>;
  /**
   * Runs `work` if no other node is running it now (the expiry sweep: one leader at a time), and
   * resolves to its result, or to `undefined` when another node holds the lead.
   */
  leadSweep<T>(work: () => Promise<T>): Promise<T | undefined>;
  /** Throws when the store cannot answer (readiness). */
  ping(): Promise<void>;
  /** Answers what was asked, then closes. */
  close(): Promise<void>;
}
