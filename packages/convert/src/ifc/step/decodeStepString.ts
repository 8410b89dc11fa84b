const BACKSLASH = 0x5c,
  QUOTE = 0x27;

/**
 * Decodes the bytes between a STEP string's quotes (ISO 10303-21, editions 2 and 3): `''` is a
 * quote, `\\` a backslash, `\S\c` the character c + 128 of the current ISO 8859 page (`\PA\`…
 * `\PI\` switch pages; A, Latin-1, until then), `\X\hh` a Latin-1 byte, `\X2\…\X0\` UTF-16 code
 * units, `\X4\…\X0\` code points. Bytes outside printable ASCII are not STEP, but exporters
 * write them: valid UTF-8 is read as UTF-8, anything else as Latin-1. An escape that does not
 * parse is kept as written. Never throws.
 *
 * @example
 * ```ts
 * decodeStepString(new TextEncoder().encode("T\\X2\\00FC\\X0\\r 'A''B'")); // → "Tür 'A'B'"
 * ```
 */
export function decodeStepString(bytes: Uint8Array, from = 0, to = bytes.length): string {
  let out = '';
  let page = 'A';
  let run = from; // start of the plain bytes not yet added
  const flush = (end: number) => {
    if (end > run) out += plainText(bytes, run, end);
  };
  for (let i = from; i < to; ) {
    const c = bytes[i]!;
    if (c === QUOTE && bytes[i + 1] === QUOTE && i + 1 < to) {
      flush(i + 1); // keep one quote
      i += 2;
      run = i;
    } else if (c === BACKSLASH) {
      const escaped = readEscape(bytes, i, to, page);
      if (!escaped) {
        i++;
        continue;
      }
      flush(i);
      out += escaped.text;
      if (escaped.page) page = escaped.page;
      i = escaped.end;
      run = i;
    } else {
      i++;
    }
  }
  flush(to);
  return out;
}

interface Escape {
  text: string;
  end: number;
  page?: string;
}

function readEscape(bytes: Uint8Array, i: number, to: number, page: string): Escape | undefined {
  const at = (k: number) => (i + k < to ? bytes[i + k]! : -1);
  const letter = at(1);
  if (letter === BACKSLASH) return { text: '\\', end: i + 2 };
  switch (letter) {
    case 0x53: {
      // \S\c
      const ch = at(3);
      if (at(2) !== BACKSLASH) return undefined;
      if (ch < 0x20 || ch > 0x7e) return undefined;
      return { text: pageChar(page, ch + 128), end: i + 4 };
    }
    case 0x50: {
      // \PA\ … \PI\
      const p = at(2);
      if (p < 0x41 || p > 0x49 || at(3) !== BACKSLASH) return undefined;
      return { text: '', end: i + 4, page: String.fromCharCode(p) };
    }
    case 0x58: {
      // \X\hh, \X2\…\X0\, \X4\…\X0\
      if (at(2) === BACKSLASH) {
        const code = hex(bytes, i + 3, 2, to);
        return code < 0 ? undefined : { text: String.fromCharCode(code), end: i + 5 };
      }
      const width = at(2) === 0x32 ? 4 : at(2) === 0x34 ? 8 : 0;
      if (width === 0 || at(3) !== BACKSLASH) return undefined;
      let text = '';
      let k = i + 4;
      for (;;) {
        if (bytes[k] === BACKSLASH && bytes[k + 1] === 0x58 && bytes[k + 2] === 0x30 && bytes[k + 3] === BACKSLASH && k + 3 < to) {
          return { text, end: k + 4 };
        }
        const code = hex(bytes, k, width, to);
        if (code < 0) return undefined;
        text += width === 4 ? String.fromCharCode(code) : code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
        k += width;
      }
    }
    default:
      return undefined;
  }
}

/** `digits` hexadecimal digits at `i` as a number, or −1. */
function hex(bytes: Uint8Array, i: number, digits: number, to: number): number {
  if (i + digits > to) return -1;
  let v = 0;
  for (let k = 0; k < digits; k++) {
    const c = bytes[i + k]!;
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

const pageDecoders = new Map<string, InstanceType<typeof TextDecoder>>();

/** Character `code` (0xA0–0xFE) of ISO 8859 part A–I (1–9). */
function pageChar(page: string, code: number): string {
  if (page === 'A') return String.fromCharCode(code);
  const part = page.charCodeAt(0) - 0x40;
  let decoder = pageDecoders.get(page);
  if (!decoder) pageDecoders.set(page, (decoder = new TextDecoder(`iso-8859-${part}`)));
  return decoder.decode(new Uint8Array([code]));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Unescaped bytes: ASCII as is; beyond it UTF-8 when the bytes are valid UTF-8, else Latin-1. */
function plainText(bytes: Uint8Array, from: number, to: number): string {
  let ascii = true;
  for (let k = from; k < to; k++)
    if (bytes[k]! > 0x7e || bytes[k]! < 0x20) {
      ascii = false;
      break;
    }
  if (!ascii) {
    try {
      return utf8.decode(bytes.subarray(from, to));
    } catch {
      // not UTF-8: one character per byte below
    }
  }
  let text = '';
  for (let k = from; k < to; k++) text += String.fromCharCode(bytes[k]!);
  return text;
}
