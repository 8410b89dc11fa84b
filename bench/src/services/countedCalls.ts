/**
 * Wraps an object so that every method call through the wrapper is noted by name, in order, then
 * made on the object itself: how the bench and the tests count what a piece of the server asks of
 * a service (an object store's calls, each one request or more).
 *
 * @example
 * ```ts
 * const { proxy: objects, calls } = countedCalls(store);
 * await jobs.run(job); // with `objects` in place of `store`
 * calls; // → ['putScratch', 'fetchScratch', …]
 * ```
 */
export function countedCalls<T extends object>(target: T): { proxy: T; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(target, {
    get(object, name, receiver) {
      const value = Reflect.get(object, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
  return { proxy, calls };
}
