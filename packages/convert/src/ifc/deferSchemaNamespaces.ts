/** What {@link deferSchemaNamespaces} did to web-ifc's source. */
export interface DeferredSource {
  source: string;
  /** The namespaces made lazy (`IFC2X3`, `IFC4`, `IFC4X3`); none when the source was left as it is. */
  deferred: string[];
}

// `var IFC4;\n((IFC42) => {` … `})(IFC4 || (IFC4 = {}));`: how web-ifc's bundle (esbuild output of
// TypeScript namespaces) defines each schema's classes.
const OPENING = /^var (IFC2X3|IFC4|IFC4X3);\n\(\((\w+)\) => \{\n/gm;
const CLOSING = /^\}\)\((IFC2X3|IFC4|IFC4X3) \|\| \(\1 = \{\}\)\);$/gm;
const EXPECTED = ['IFC2X3', 'IFC4', 'IFC4X3'];

/**
 * Makes web-ifc's three schema namespaces lazy. They declare ~2,500 classes for its properties API
 * (`GetLine`, `WriteLine`), which a conversion never calls (our STEP reader reads identity and door
 * sizes); running them costs ~20 ms of a process's start-up and a third of web-ifc's code cache.
 * Each namespace becomes an object that runs its original definition on first use, so anything
 * that does use them (a test comparing with `GetLine`) gets them whole. The rewrite applies only
 * when all three definitions are found exactly as web-ifc 0.0.78 writes them; any other source is
 * returned as it is (slower, never wrong). `onFill` hears which namespace was first used.
 *
 * @example
 * ```ts
 * const { source, deferred } = deferSchemaNamespaces(readFileSync(webIfcPath, 'utf8'));
 * ```
 */
export function deferSchemaNamespaces(original: string): DeferredSource {
  const opened = [...original.matchAll(OPENING)].map((m) => m[1]!);
  const closed = [...original.matchAll(CLOSING)].map((m) => m[1]!);
  if (opened.join() !== EXPECTED.join() || closed.join() !== EXPECTED.join()) return { source: original, deferred: [] };
  const source = original
    .replace(OPENING, (_, name: string, arg: string) => `var ${name} = __arsessionLazyNamespace(${JSON.stringify(name)},\n(${arg}) => {\n`)
    .replace(CLOSING, '});');
  return { source: `${LAZY_NAMESPACE} ${source}`, deferred: EXPECTED };
}

// Put before web-ifc's first line, on it, so that its line numbers (in stack traces) stay as they
// are. `__arsessionSchemaFilled` is a parameter of the function the source is wrapped in (loadWebIfc).
const LAZY_NAMESPACE =
  'const __arsessionLazyNamespace = (name, define) => { const target = {}; let ' +
  'done = false; const fill = () => { if (!done) { done = true; define(target); ' +
  '__arsessionSchemaFilled(name); } }; return new Proxy(target, { get: ' +
  '(t, k, r) => (fill(), Reflect.get(t, k, r)), has: (t, k) => (fill(), ' +
  'Reflect.has(t, k)), ownKeys: (t) => (fill(), Reflect.ownKeys(t)), ' +
  'getOwnPropertyDescriptor: (t, k) => (fill(), Reflect.getOwnPropertyDescriptor(t, ' +
  'k)), set: (t, k, v, r) => (fill(), Reflect.set(t, k, v, r)), defineProperty: ' +
  '(t, k, d) => (fill(), Reflect.defineProperty(t, k, d)) }); };';
