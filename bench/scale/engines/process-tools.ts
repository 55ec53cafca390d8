/**
 * Process and port helpers for the engine comparison: free loopback ports, waiting for a listener, CPU time of an
 * engine from Linux's /proc (proc(5): /proc/[pid]/stat fields 14–15, utime and stime in clock ticks).
 */
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on every Linux this runs on). */
const TICKS_PER_S = 100;

/** A port nobody listens on now (the kernel's pick on 127.0.0.1); never one of the machine's own services. */
export { freePort } from '@tessera/server/testing';

/** True when a TCP connection to 127.0.0.1:`port` opens. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Waits until every port of `ports` accepts connections.
 * @throws when `timeoutMs` passes first, or `isAlive` turns false (the engine exited).
 */
export async function waitForPorts(ports: readonly number[], timeoutMs: number, isAlive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isAlive()) throw new Error(`engine exited before listening on ${ports.join(', ')}`);
    const open = await Promise.all(ports.map(accepts));
    if (open.every(Boolean)) return;
    if (Date.now() > deadline) throw new Error(`ports ${ports.join(', ')} not open after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

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

/** Resolves once no process `pid` exists (polls /proc every 20 ms). */
export async function waitForExit(pid: number): Promise<void> {
  while (existsSync(`/proc/${pid}`)) await new Promise((r) => setTimeout(r, 20));
}
