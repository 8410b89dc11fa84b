/**
 * The URL of one of this package's built scripts (`dist/<path>`), for a thread to run: a thread
 * runs built JavaScript, whether the module asking (`from`, its `import.meta.url`) runs from
 * dist/, from the CLI's bundle in dist/bundle/, or from its TypeScript source, as tests run it
 * (`pnpm test` builds first).
 *
 * @example
 * ```ts
 * new Worker(builtScript('ifc/stepSyntaxHelper.js', import.meta.url));
 * ```
 */
export function builtScript(path: string, from: string): URL {
  const root = from.endsWith('.ts') ? `${from.slice(0, from.lastIndexOf('/src/'))}/dist/` : from.slice(0, from.lastIndexOf('/dist/') + 6);
  return new URL(path, root);
}
