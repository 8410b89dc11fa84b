import { readFileSync } from 'node:fs';

/**
 * Peak resident memory of this process (MB). On Linux from VmHWM, which belongs to the address
 * space and starts afresh at exec; getrusage's maxRSS survives fork+exec, so a child spawned by a
 * big parent would report the parent's peak.
 *
 * @example
 * ```ts
 * process.stdout.write(JSON.stringify({ ms, peakRssMb: peakRssMb() }));
 * ```
 */
export function peakRssMb(): number {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) / 1024;
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS / 1024;
}
