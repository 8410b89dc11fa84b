/** Who an error is about: the file (as the caller named it) and, for a service, the request field it came in. */
export interface UsdErrorSubject {
  fileName?: string;
  field?: string;
  cause?: unknown;
}

/**
 * Base of every error this library raises on a file it cannot take. Each carries a stable `code`
 * and what it concerns, so a caller can report it without reading messages; anything else thrown
 * is a bug of ours.
 */
export class UsdError extends Error {
  readonly code: string;
  readonly fileName: string | undefined;
  readonly field: string | undefined;

  constructor(code: string, message: string, subject: UsdErrorSubject = {}) {
    super(message, subject.cause === undefined ? undefined : { cause: subject.cause });
    this.name = new.target.name;
    this.code = code;
    this.fileName = subject.fileName;
    this.field = subject.field;
  }
}

/**
 * Bytes that do not read as what they claim: a truncated or corrupt crate, USDA text that does
 * not parse, a zip that lies about its sizes, or one that decodes past its allowance.
 *
 * @example
 * ```ts
 * try { readCrate(bytes, 'a.usdc'); } catch (err) { if (err instanceof UsdUnreadableError) report(err.message); }
 * ```
 */
export class UsdUnreadableError extends UsdError {
  constructor(message: string, subject: UsdErrorSubject = {}) {
    super('usd_unreadable', message, subject);
  }
}

/**
 * A USDZ package that breaks a rule no repack fixes: an entry escaping it, a first entry that is
 * not a layer, a zip bomb, a layer it does not hold or cannot read as one. `rule` names it.
 *
 * @example
 * ```ts
 * try { checkUsdzPackage(bytes); } catch (err) { if (err instanceof UsdPackageError) console.log(err.rule); } // 'first_entry_not_usd'
 * ```
 */
export class UsdPackageError extends UsdError {
  /** The rule broken, e.g. `first_entry_not_usd`, `unsupported_reference`, `unencapsulated_reference`, `too_large`. */
  readonly rule: string;

  constructor(rule: string, message: string, subject: UsdErrorSubject = {}) {
    super('usdz_package_invalid', message, subject);
    this.rule = rule;
  }
}
