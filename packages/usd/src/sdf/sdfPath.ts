// Path text as USD writes it (see SdfLayer): prims joined by '/', a variant selection as
// `{set=variant}` right after its prim (children then follow it without a '/'), a property after '.'.

/**
 * The path of prim `name` under prim path `parent`: `/A` + `B` → `/A/B`, `/A{v=x}` + `B` →
 * `/A{v=x}B`, `/` + `A` → `/A`.
 *
 * @example
 * ```ts
 * childPath('/World{shape=ball}', 'Geom'); // → '/World{shape=ball}Geom'
 * ```
 */
export function childPath(parent: string, name: string): string {
  if (parent === '/') return `/${name}`;
  return parent.endsWith('}') ? `${parent}${name}` : `${parent}/${name}`;
}

/**
 * The path of property `name` of prim path `prim`.
 *
 * @example
 * ```ts
 * propertyPath('/World/Mesh', 'points'); // → '/World/Mesh.points'
 * ```
 */
export function propertyPath(prim: string, name: string): string {
  return `${prim}.${name}`;
}

/**
 * The path of a variant of variant set `set` on prim path `prim`.
 *
 * @example
 * ```ts
 * variantPath('/World', 'shape', 'ball'); // → '/World{shape=ball}'
 * ```
 */
export function variantPath(prim: string, set: string, variant: string): string {
  return `${prim}{${set}=${variant}}`;
}

/**
 * Splits a property path into its prim path and property name (`/A/B.outputs:rgb` →
 * [`/A/B`, `outputs:rgb`]); a prim path gives an empty name.
 *
 * @example
 * ```ts
 * splitPropertyPath('/M/Tex.outputs:rgb'); // → ['/M/Tex', 'outputs:rgb']
 * ```
 */
export function splitPropertyPath(path: string): [string, string] {
  // The property's '.' is the first one after the last '/' or '}' (prim names hold no '.').
  const lastPrim = Math.max(path.lastIndexOf('/'), path.lastIndexOf('}'));
  const dot = path.indexOf('.', lastPrim + 1);
  return dot < 0 ? [path, ''] : [path.slice(0, dot), path.slice(dot + 1)];
}

/**
 * `path` with prefix `from` replaced by `to`, or `undefined` when `path` is not at or under
 * `from` (a prefix ends at an element boundary: `/AB` is not under `/A`).
 *
 * @example
 * ```ts
 * replacePrefix('/Chair/Seat.points', '/Chair', '/World/Chair'); // → '/World/Chair/Seat.points'
 * ```
 */
export function replacePrefix(path: string, from: string, to: string): string | undefined {
  if (from === '/') return to === '/' ? path : `${to}${path}`;
  if (path === from) return to;
  if (!path.startsWith(from)) return undefined;
  const next = path[from.length];
  if (next !== '/' && next !== '.' && next !== '{' && !from.endsWith('}')) return undefined;
  const rest = path.slice(from.length);
  if (to === '/') return rest.startsWith('/') ? rest : `/${rest.replace(/^\./, '')}`;
  return `${to}${rest}`;
}

/**
 * Whether `path` is `prefix` or lies under it.
 *
 * @example
 * ```ts
 * hasPathPrefix('/World/Geom/Mesh', '/World/Geom'); // → true
 * hasPathPrefix('/World/GeomX', '/World/Geom'); // → false
 * ```
 */
export function hasPathPrefix(path: string, prefix: string): boolean {
  return replacePrefix(path, prefix, prefix) !== undefined;
}
