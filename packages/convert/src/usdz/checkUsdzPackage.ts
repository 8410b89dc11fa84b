import { checkUsdzPackage as checkPackage, type CheckedUsdzPackage, type CheckUsdzPackageOptions } from '@arsession/usd';
import { withConvertErrors } from './fromUsdError.js';

/**
 * `@arsession/usd`'s package check with the converter's errors: a rule broken as a
 * `UsdzPackageError`, an unreadable zip as a `ModelUnreadableError`.
 *
 * @example
 * ```ts
 * const { bytes, repaired } = checkUsdzPackage(upload, { fileName: 'chair.usdz' });
 * ```
 */
export function checkUsdzPackage(input: Uint8Array, options: Partial<CheckUsdzPackageOptions> = {}): CheckedUsdzPackage {
  return withConvertErrors(options, () => checkPackage(input, options));
}
