/**
 * Process and port helpers for the engine comparison: free loopback ports, waiting for a listener, CPU time of an
 * engine from Linux's /proc (proc(5): /proc/[pid]/stat fields 14–15, utime and stime in clock ticks).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
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

/** The start, pid, kill -9 and disposal of an engine run as one child process (see engine.ts `TEngine`). */
export interface TEngineProcess {
  start(): Promise<void>;
  pid(): number;
  kill9(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Runs `binary` with `args` as the engine: started (again, after a kill) by `start()`, which waits until every port of
 * `ports` accepts within `bootMs`; `dispose()` kills it and removes `dir`, its data directory.
 */
export function engineProcess(
  binary: string,
  args: readonly string[],
  ports: readonly number[],
  bootMs: number,
  dir: string,
): TEngineProcess {
  let child: ChildProcess | undefined;
  let alive = false;
  return {
    async start() {
      const proc = spawn(binary, args, { stdio: 'ignore' });
      child = proc;
      alive = true;
      proc.once('exit', () => {
        if (child === proc) alive = false;
      });
      await waitForPorts(ports, bootMs, () => alive);
    },
    pid: () => child?.pid ?? 0,
    async kill9() {
      const pid = child?.pid;
      child?.kill('SIGKILL');
      if (pid) await waitForExit(pid);
    },
    async dispose() {
      child?.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
