// Paths in `<…>` as SdfPath reads them — absolute (`/A/B.attr`), relative to the prim they are
// written in (`Child`, `../Other`, `.attr`, `.`), with variant selections (`/A{v=x}B`) — made
// absolute the way `SdfPath::MakeAbsolutePath` does, so the layer only ever holds absolute paths.
// Target paths (`/A.rel[/B]`) are not read.

/** A path made absolute. */
export interface ResolvedUsdaPath {
  ok: true;
  /** Path text as USD writes it: `/A/B`, `/A{v=x}B.attr`, `/`. */
  path: string;
  /** It names a property (`….attr`). */
  property: boolean;
  /** It holds a variant selection (`{v=x}`). */
  variants: boolean;
}

/** Why a path could not be read or made absolute. */
export interface UnresolvedUsdaPath {
  ok: false;
  why: string;
}

type Element = { name: string } | { set: string; variant: string };

const IDENTIFIER = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;
const VARIANT_SET = /^[\p{XID_Start}_][\p{XID_Continue}-]*$/u;
const VARIANT = /^\.?[\p{XID_Continue}|-]*$/u;

/**
 * Path text made absolute against `anchor`, the absolute prim path (`/`, `/World/Geom`, no
 * variant selections) of the prim the path is written in. `..` climbs from the anchor,
 * `stripVariants` drops variant selections (paths that never point into a variant: targets,
 * connections).
 *
 * @example
 * ```ts
 * resolveUsdaPath('../Looks/M.outputs:surface', '/World/Geom', false);
 * // → { ok: true, path: '/World/Looks/M.outputs:surface', property: true, variants: false }
 * ```
 */
export function resolveUsdaPath(text: string, anchor: string, stripVariants: boolean): ResolvedUsdaPath | UnresolvedUsdaPath {
  const bad = (why: string): UnresolvedUsdaPath => ({ ok: false, why: `<${text}> ${why}` });
  if (text === '') return bad('is empty');
  let p = 0,
    up = 0;
  const elements: Element[] = [];
  const absolute = text[0] === '/';
  // A name must come next: after the leading '/', after '..' and its '/', and after each '/'.
  let expectName = false;
  if (absolute) {
    p = 1;
    expectName = p < text.length;
  } else if (text === '.') {
    p = 1;
  } else if (text.startsWith('..') && (text.length === 2 || text[2] === '/')) {
    up = 1;
    p = 2;
    while (text.startsWith('/..', p) && (p + 3 === text.length || text[p + 3] === '/')) {
      up++;
      p += 3;
    }
    if (p < text.length) {
      p++; // the '/'
      if (p >= text.length) return bad('ends with "/"');
      expectName = text[p] !== '.';
    }
  } else {
    expectName = text[0] !== '.';
  }
  while (p < text.length && text[p] !== '.' && text[p] !== '[') {
    const c = text[p]!;
    if (c === '{') {
      if (expectName || elements.length === 0) return bad('has a variant selection where a prim name belongs');
      const close = text.indexOf('}', p);
      if (close < 0) return bad('has an unclosed variant selection');
      const inner = text.slice(p + 1, close);
      const eq = inner.indexOf('=');
      if (eq < 0) return bad('has a variant selection without "="');
      const set = inner.slice(0, eq).trim(),
        variant = inner.slice(eq + 1).trim();
      if (!VARIANT_SET.test(set) || !VARIANT.test(variant)) return bad('has an invalid variant selection');
      elements.push({ set, variant });
      p = close + 1;
    } else if (c === '/') {
      // '/' only joins two names ('/A{v=x}/B' is not a path).
      const last = elements[elements.length - 1];
      if (expectName || !last || !('name' in last)) return bad('is not a valid path');
      expectName = true;
      p++;
    } else {
      let q = p;
      while (q < text.length && !'/.{[}'.includes(text[q]!)) q++;
      const name = text.slice(p, q);
      if (!IDENTIFIER.test(name)) return bad(`has an invalid prim name "${name}"`);
      const last = elements[elements.length - 1];
      if (!expectName && last && 'name' in last) return bad('is not a valid path');
      elements.push({ name });
      expectName = false;
      p = q;
    }
  }
  if (expectName) return bad('is not a valid path');
  let property: string | undefined;
  if (text[p] === '[') return bad('is a target path ([…]), which is not supported');
  if (text[p] === '.' && text !== '.') {
    property = text.slice(p + 1);
    if (property.includes('[')) return bad('is a target path ([…]), which is not supported');
    if (!property.split(':').every((part) => IDENTIFIER.test(part))) return bad(`has an invalid property name "${property}"`);
  }

  const base: Element[] = [];
  if (!absolute) {
    for (const part of anchor.split('/')) if (part) base.push({ name: part });
    for (let i = 0; i < up; i++) {
      if (base.length === 0) return bad(`climbs above the root from <${anchor}>`);
      base.pop();
    }
  }
  // Parts joined once at the end: growing one string and inspecting it as it grows would
  // flatten it every time, quadratic for long paths.
  const parts: string[] = [];
  let variants = false,
    afterVariant = false;
  for (const e of [...base, ...elements]) {
    if ('name' in e) {
      parts.push(afterVariant ? e.name : `/${e.name}`);
      afterVariant = false;
    } else if (!stripVariants) {
      parts.push(`{${e.set}=${e.variant}}`);
      variants = afterVariant = true;
    }
  }
  let path = parts.length ? parts.join('') : '/';
  if (property !== undefined) {
    if (path === '/') return bad('names a property of the root');
    path += `.${property}`;
  }
  return { ok: true, path, property: property !== undefined, variants };
}
