import { readdirSync, readFileSync } from 'node:fs';

/** Linux's clock ticks per second (USER_HZ), in which /proc reports CPU time. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (ms, user + system, every thread) each process on this machine has used so far,
 * summed by name: a process in `named` under its given name, every other under its command's
 * first word (`swift-proxy-server` → `swift`, `postgres`, `redis`). Two snapshots around a load
 * run give what each service cost it.
 *
 * @example
 * ```ts
 * const before = processCpu({ server: child.pid! });
 * const after = processCpu({ server: child.pid! });
 * const swiftMs = (after.get('swift') ?? 0) - (before.get('swift') ?? 0);
 * ```
 */
export function processCpu(named: Readonly<Record<string, number>> = {}): Map<string, number> {
  const byPid = new Map(Object.entries(named).map(([name, pid]) => [String(pid), name]));
  const used = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // The command is in parentheses and may hold spaces; utime and stime are fields 14 and 15.
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    const name = byPid.get(pid) ?? command.split(/[-:/ ]/)[0]!;
    used.set(name, (used.get(name) ?? 0) + ms);
  }
  return used;
}

/**
 * What each process used between two {@link processCpu} snapshots, per unit of work (`per`), the
 * largest first (a process that exited between them is not counted).
 *
 * @example
 * ```ts
 * const perSession = cpuPer(before, processCpu({ server: pid }), sessions); // → [{ name: 'swift', ms: 17 }, …]
 * ```
 */
export function cpuPer(before: Map<string, number>, after: Map<string, number>, per: number): Array<{ name: string; ms: number }> {
  return [...after]
    .map(([name, ms]) => ({ name, ms: (ms - (before.get(name) ?? 0)) / per }))
    .filter((p) => p.ms > 0)
    .sort((a, b) => b.ms - a.ms);
}
