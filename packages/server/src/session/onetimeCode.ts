import { randomInt } from 'node:crypto';

/**
 * Digits of a one-time code. Twelve, because guessing must not pay (docs/SECURITY.md): 1,000
 * addresses, each allowed 50 failed guesses a day, make 50,000 guesses; against 100,000 live codes
 * among 10¹² they claim 50,000 × 10⁵ / 10¹² = 0.005 sessions a day in expectation. Six digits would
 * be 5,000 sessions.
 */
export const ONETIME_CODE_DIGITS = 12;

/** A code as it is stored and handed out: the digits alone. */
const CODE = new RegExp(`^\\d{${ONETIME_CODE_DIGITS}}$`);

/**
 * A fresh one-time code: twelve decimal digits from the system's CSPRNG, leading zeros kept.
 *
 * @example
 * ```ts
 * newOnetimeCode(); // → '042199371180'
 * ```
 */
export function newOnetimeCode(): string {
  return String(randomInt(10 ** ONETIME_CODE_DIGITS)).padStart(ONETIME_CODE_DIGITS, '0');
}

/**
 * A code as a person may type it back — in groups, with spaces or dashes between them — as the
 * twelve digits it is; `undefined` when it is not one.
 *
 * @example
 * ```ts
 * readOnetimeCode('0421 9937-1180'); // → '042199371180'
 * readOnetimeCode('42'); // → undefined
 * ```
 */
export function readOnetimeCode(text: string): string | undefined {
  const digits = text.trim().replace(/[ -]/g, '');
  return CODE.test(digits) ? digits : undefined;
}

/**
 * A code in groups of four, as a page shows it to be read aloud or typed: `0421 9937 1180`.
 *
 * @example
 * ```ts
 * groupedOnetimeCode('042199371180'); // → '0421 9937 1180'
 * ```
 */
export function groupedOnetimeCode(code: string): string {
  return code.replace(/(\d{4})(?=\d)/g, '$1 ');
}
