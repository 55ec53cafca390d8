/**
 * Process and port helpers for the engine comparison: free loopback ports, waiting for a listener, CPU time of an
 * engine from Linux's /proc (proc(5): /proc/[pid]/stat fields 14–15, utime and stime in clock ticks).
 */
import { existsSync } from 'node:fs';
import net from 'node:net';

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
export { cpuMsOfPid } from '../../support/proc-cpu.js';

/** Resolves once no process `pid` exists (polls /proc every 20 ms). */
export async function waitForExit(pid: number): Promise<void> {
  while (existsSync(`/proc/${pid}`)) await new Promise((r) => setTimeout(r, 20));
}
