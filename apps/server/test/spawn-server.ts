/**
 * The server as a process manager runs it: a real child process (the start command or main.ts), its ports read
 * from its "Tessera is up" log line, its exit observed, and every process of its tree listed — for the tests of
 * start-up, stopping and the start command.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root (where `npm run start:server` runs). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A spawned server. */
export interface TSpawnedServer {
  child: ChildProcess;
  httpPort: number;
  mqttPort: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the top process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs `command` `args` in the repository root with the environment `env` (added to this process's, minus
 * DATABASE_URL and MQTT_URL unless `env` sets them) and waits for "Tessera is up".
 * @throws when the server exits or `timeoutMs` passes first (the child and every process under it are killed).
 */
export async function spawnServer(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<TSpawnedServer> {
  const { DATABASE_URL: _db, MQTT_URL: _mqtt, ...inherited } = process.env;
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...inherited, LOG_LEVEL: 'info', DEMO: '0', PORT: '0', MQTT_PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const up = await new Promise<{ http: number; mqtt: number }>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no "Tessera is up" within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      // The whole tree: `npm start` runs the server as its grandchild, which would outlive its killed parent.
      for (const pid of child.pid ? descendantsOf(child.pid) : []) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      child.kill('SIGKILL');
      reject(err);
    };
    const onData = () => {
      const line = out.split('\n').find((l) => l.includes('Tessera is up'));
      if (!line) return;
      clearTimeout(timer);
      resolve(JSON.parse(line) as { http: number; mqtt: number });
    };
    child.stdout?.on('data', onData);
    void exited.then(({ code }) => fail(new Error(`the server exited (${code}) before it was up:\n${out}`)));
  });
  return { child, httpPort: up.http, mqttPort: up.mqtt, output: () => out, exited };
}

/** The pids of every descendant of `pid` (children, their children, …), read from `ps`. */
export function descendantsOf(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of table) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** True while process `pid` exists (and is not a zombie waiting for its parent). */
export function isAlive(pid: number): boolean {
  try {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return state !== '' && !state.startsWith('Z');
  } catch {
    return false;
  }
}
