const APOSTROPHE = 0x27,
  BACKSLASH = 0x5c;
const LETTER_S = 0x53,
  LETTER_X = 0x58,
  LETTER_P = 0x50,
  LETTER_A = 0x41,
  LETTER_I = 0x49;
const DIGIT_0 = 0x30,
  DIGIT_2 = 0x32,
  DIGIT_4 = 0x34;

/**
 * Index of the quote that closes the STEP string or binary opened at `open` (ISO 10303-21), or
 * −1 when it never closes. In a `'…'` string, `''` is a quote and a control directive is one
 * unit: `\S\` takes the character after it whatever it is, so `'\S\''` is "§" (0x27 + 128) and
 * not an empty string followed by a stray quote. `\\`, `\X\`, `\X2\`, `\X4\`, `\X0\` and
 * `\PA\`…`\PI\` are skipped whole so that their closing backslash never starts a `\S\`. A
 * `"…"` binary has no escapes. (web-ifc takes a quote after any `\S\` as a character, even where
 * the backslash before the S closes `\\` or `\X0\`: checkStepSyntax refuses the strings where
 * that moves their end.)
 *
 * @example
 * ```ts
 * stepStringEnd(new TextEncoder().encode("'\\S\\'' , 'x'"), 0); // → 5
 * ```
 */
export function stepStringEnd(bytes: Uint8Array, open: number): number {
  const n = bytes.length;
  if (bytes[open] !== APOSTROPHE) return bytes.indexOf(bytes[open]!, open + 1);
  let k = open + 1;
  for (;;) {
    let c = 0;
    while (k < n && (c = bytes[k]!) !== APOSTROPHE && c !== BACKSLASH) k++;
    if (k >= n) return -1;
    if (c === BACKSLASH) k += directiveLength(bytes, k);
    else if (bytes[k + 1] === APOSTROPHE) k += 2;
    else return k;
  }
}

/** Bytes taken by the control directive or escaped backslash at `at`; 1 for a lone backslash. */
function directiveLength(bytes: Uint8Array, at: number): number {
  const a = bytes[at + 1],
    b = bytes[at + 2],
    c = bytes[at + 3];
  if (a === BACKSLASH) return 2;
  if (a === LETTER_S && b === BACKSLASH) return 4;
  if (a === LETTER_X && b === BACKSLASH) return 3;
  if (a === LETTER_X && (b === DIGIT_0 || b === DIGIT_2 || b === DIGIT_4) && c === BACKSLASH) return 4;
  if (a === LETTER_P && b !== undefined && b >= LETTER_A && b <= LETTER_I && c === BACKSLASH) return 4;
  return 1;
}
