/**
 * The memory a process has mapped for data (bytes), as its `/proc/<pid>/status` text says it
 * (`VmData`: what RLIMIT_DATA counts); `undefined` when the text has none.
 *
 * @example
 * ```ts
 * vmDataBytes('VmData:\t  48604 kB\n'); // → 49770496
 * ```
 */
export function vmDataBytes(status: string): number | undefined {
  const kb = /^VmData:\s+(\d+) kB/m.exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}
