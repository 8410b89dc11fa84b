/** What {@link deferSchemaCode} did to web-ifc's source. */
export interface DeferredSource {
  source: string;
  /**
   * What was made lazy: the namespaces (`IFC2X3`, `IFC4`, `IFC4X3`) and the tables by schema
   * (`FromRawLineData[2]`, …); none when the source was left as it is.
   */
  deferred: readonly string[];
}

// `var IFC4;\n((IFC42) => {` … `})(IFC4 || (IFC4 = {}));`: how web-ifc's bundle (esbuild output of
// TypeScript namespaces) defines each schema's classes.
const OPENING = /^var (IFC2X3|IFC4|IFC4X3);\n\(\((\w+)\) => \{\n/gm;
const CLOSING = /^\}\)\((IFC2X3|IFC4|IFC4X3) \|\| \(\1 = \{\}\)\);$/gm;
const NAMESPACES = ['IFC2X3', 'IFC4', 'IFC4X3'];

// `FromRawLineData[2] = {` … `};`: a table of one schema (1 IFC2X3, 2 IFC4, 3 IFC4X3), an object
// literal of a closure or a list per IFC type, assigned at the top level. Its end is the first
// line `};` after it.
const TABLES = ['FromRawLineData', 'InheritanceDef', 'InversePropertyDef', 'Constructors', 'ToRawLineData', 'TypeInitialisers'];
const TABLE_OPENING = new RegExp(`^(${TABLES.join('|')})\\[([123])\\] = \\{\\n`, 'gm');
const TABLE_CLOSING = '\n};\n';
const SCHEMA_TABLES = ['1', '2', '3'].flatMap((schema) => TABLES.map((table) => `${table}[${schema}]`));

/** What {@link deferSchemaCode} defers in web-ifc 0.0.78's source: its namespaces, then its tables. */
export const DEFERRED_SCHEMA_CODE: readonly string[] = [...NAMESPACES, ...SCHEMA_TABLES];

/**
 * Makes web-ifc's schema code lazy: its three schema namespaces (~2,500 classes) and, for each
 * schema, the six tables its properties API reads lines through (`GetLine`, `WriteLine`:
 * ~3.5 MB of object literals holding ~20,000 closures). A conversion uses none of them (our STEP
 * reader reads identity and door sizes); defined at load they cost ~20 ms of a process's
 * start-up and most of web-ifc's code cache, which V8 must read back whole. Each namespace becomes
 * an object that runs its original definition on first use, and each table entry a getter that
 * builds the table on first read, so anything that does use them (a test comparing with
 * `GetLine`) gets them whole. The rewrite applies only when every namespace and table is found
 * exactly as web-ifc 0.0.78 writes them; any other source is returned as it is (slower, never
 * wrong). `__arsessionSchemaFilled` (a parameter of the wrapper `loadWebIfc` runs the source in)
 * hears each namespace and table as it is defined.
 *
 * @example
 * ```ts
 * const { source, deferred } = deferSchemaCode(readFileSync(webIfcPath, 'latin1'));
 * ```
 */
export function deferSchemaCode(original: string): DeferredSource {
  const opened = [...original.matchAll(OPENING)].map((m) => m[1]!);
  const closed = [...original.matchAll(CLOSING)].map((m) => m[1]!);
  if (opened.join() !== NAMESPACES.join() || closed.join() !== NAMESPACES.join()) return { source: original, deferred: [] };
  const tables = findTables(original);
  if (!tables || tables.map((t) => `${t.table}[${t.schema}]`).join() !== SCHEMA_TABLES.join()) return { source: original, deferred: [] };
  // Each replacement keeps its lines: stack traces into web-ifc keep their line numbers.
  const pieces: string[] = [];
  let at = 0;
  for (const t of tables) {
    pieces.push(original.slice(at, t.start), `__arsessionLazyEntry(${t.table}, "${t.table}", ${t.schema}, () => ({\n`);
    pieces.push(original.slice(t.body, t.end + 1), '}));');
    at = t.end + TABLE_CLOSING.length - 1;
  }
  pieces.push(original.slice(at));
  const source = pieces
    .join('')
    .replace(OPENING, (_, name: string, arg: string) => `var ${name} = __arsessionLazyNamespace(${JSON.stringify(name)},\n(${arg}) => {\n`)
    .replace(CLOSING, '});');
  return { source: `${LAZY_NAMESPACE} ${LAZY_ENTRY} ${source}`, deferred: DEFERRED_SCHEMA_CODE };
}

/** Where a table is assigned: its opening line from `start`, its entries from `body`, and the newline before its `};` at `end`. */
interface TableAt {
  table: string;
  schema: string;
  start: number;
  body: number;
  end: number;
}

/** Every table assignment in the source, in order; undefined when one does not close before the next opens. */
function findTables(source: string): TableAt[] | undefined {
  const tables = [...source.matchAll(TABLE_OPENING)].map((m) => ({
    table: m[1]!,
    schema: m[2]!,
    start: m.index,
    body: m.index + m[0].length,
    end: source.indexOf(TABLE_CLOSING, m.index + m[0].length - 1),
  }));
  const closed = tables.every((t, i) => t.end >= 0 && t.end < (tables[i + 1]?.start ?? source.length));
  return closed ? tables : undefined;
}

// Put before web-ifc's first line, on it, so that its line numbers (in stack traces) stay as they are.
const LAZY_NAMESPACE =
  'const __arsessionLazyNamespace = (name, define) => { const target = {}; let ' +
  'done = false; const fill = () => { if (!done) { done = true; define(target); ' +
  '__arsessionSchemaFilled(name); } }; return new Proxy(target, { get: ' +
  '(t, k, r) => (fill(), Reflect.get(t, k, r)), has: (t, k) => (fill(), ' +
  'Reflect.has(t, k)), ownKeys: (t) => (fill(), Reflect.ownKeys(t)), ' +
  'getOwnPropertyDescriptor: (t, k) => (fill(), Reflect.getOwnPropertyDescriptor(t, ' +
  'k)), set: (t, k, v, r) => (fill(), Reflect.set(t, k, v, r)), defineProperty: ' +
  '(t, k, d) => (fill(), Reflect.defineProperty(t, k, d)) }); };';

// A table entry as a getter that builds it once, then stands as a plain value (as if assigned).
const LAZY_ENTRY =
  'const __arsessionLazyEntry = (table, name, key, make) => { const settle = (value) => ' +
  'Object.defineProperty(table, key, { value, writable: true, enumerable: true, configurable: true }); ' +
  'Object.defineProperty(table, key, { enumerable: true, configurable: true, get: () => { const value = make(); ' +
  'settle(value); __arsessionSchemaFilled(name + "[" + key + "]"); return value; }, set: settle }); };';
