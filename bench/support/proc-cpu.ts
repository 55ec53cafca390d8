/**
 * CPU time of other processes from Linux's /proc (proc(5): /proc/[pid]/stat fields 14–15, utime and stime in clock
 * ticks): for a benchmark that reports the database's or a baseline broker's CPU beside its own process's.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on every Linux this runs on). */
const TICKS_PER_S = 100;

/** User plus system CPU of process `pid` so far, ms; 0 once it is gone. */
export function cpuMsOfPid(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** Every live process whose command name is `comm` (e.g. `postgres`): pid → CPU so far, ms. */
export function cpuMsByComm(comm: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== comm) continue;
    } catch {
      continue;
    }
    out.set(Number(entry), cpuMsOfPid(Number(entry)));
  }
  return out;
}

/** CPU used between two {@link cpuMsByComm} samples, ms: a process started between them counts whole, one that ended not at all. */
export function cpuMsBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let ms = 0;
  for (const [pid, t] of after) ms += t - (before.get(pid) ?? 0);
  return ms;
}

/** CPU used by the whole machine so far (every core's user, nice, system, irq and softirq time in /proc/stat), ms. */
export function machineCpuMs(): number {
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  const [, user, nice, system, , , irq, softirq] = (cpu as string).trim().split(/\s+/).map(Number);
  return (((user as number) + (nice as number) + (system as number) + (irq as number) + (softirq as number)) * 1000) / TICKS_PER_S;
}
