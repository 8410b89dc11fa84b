import { UsdError, UsdPackageError } from '@arsession/usd';
import { ModelUnreadableError, UsdzPackageError } from '../errors/ConvertError.js';

/** Who a refusal is about, as the converter's errors name it. */
interface Named {
  fileName?: string;
  field?: string;
}

/**
 * An error of the USD library as the converter's own, which callers (and the server's
 * problem+json) know: a package rule broken as {@link UsdzPackageError}, anything else the library
 * refuses as {@link ModelUnreadableError}. Anything else is returned as it is.
 *
 * @example
 * ```ts
 * try { checkUsdzPackage(bytes); } catch (err) { throw fromUsdError(err, { fileName: 'chair.usdz' }); }
 * ```
 */
export function fromUsdError(err: unknown, named: Named = {}): unknown {
  if (!(err instanceof UsdError)) return err;
  const fileName = err.fileName ?? named.fileName,
    field = err.field ?? named.field;
  const subject = { ...(fileName !== undefined && { fileName }), ...(field !== undefined && { field }) };
  return err instanceof UsdPackageError
    ? new UsdzPackageError(err.rule, err.message, subject)
    : new ModelUnreadableError(err.message, { ...subject, cause: err });
}

/**
 * Runs `read` with the USD library's errors raised as the converter's ({@link fromUsdError}).
 *
 * @example
 * ```ts
 * const entries = withConvertErrors({ fileName }, () => readZipDirectory(bytes, fileName));
 * ```
 */
export function withConvertErrors<T>(named: Named, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw fromUsdError(err, named);
  }
}
