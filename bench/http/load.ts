/**
 * bench/http's load process (forked by run.ts, so the server's CPU is its own): keep-alive HTTP/1.1 requests of one
 * target in a closed loop (BENCH_SOCKETS requests always unanswered), counted within a measured window that run.ts
 * brackets with its own CPU samples (the `window` messages).
 */
import { Agent, request } from 'node:http';

/** One request to send: method, path, headers and an optional body made per request (`seq` counts from 0). */
export interface TRequestShape {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** How a target's requests are made: the same shape each time, or ThingsBoard/ChirpStack bodies over many devices. */
export type TTargetSpec =
  | { kind: 'fixed'; port: number; shape: TRequestShape; expectStatus: number }
  | { kind: 'thingsboard'; port: number; tokens: string[] }
  | { kind: 'chirpstack'; port: number; integrations: { path: string; secret: string; devEuis: string[] }[] };

/** A command from run.ts. */
export type TLoadCommand =
  | { kind: 'run'; name: string; spec: TTargetSpec; sockets: number; warmupS: number; seconds: number }
  | { kind: 'end' };

/** A report to run.ts: the window's start and end (run.ts samples its CPU then), then the phase's counts. */
export type TLoadReport =
  | { kind: 'window'; at: 'start' | 'end' }
  | { kind: 'phase'; name: string; answered: number; elapsedS: number; unexpected: Record<string, number> };

const send = (r: TLoadReport): void => {
  process.send?.(r);
};

/** Sends one request; resolves with its status once the whole answer was read. */
function requestOnce(agent: Agent, port: number, shape: TRequestShape): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...shape.headers };
    if (shape.body !== undefined) headers['content-type'] ??= 'application/json';
    const req = request({ host: '127.0.0.1', port, path: shape.path, method: shape.method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(shape.body);
  });
}

/** The request `seq` of `spec`, and the status that counts as answered. */
function shapeOf(spec: TTargetSpec, seq: number): { shape: TRequestShape; ok: number } {
  switch (spec.kind) {
    case 'fixed':
      return { shape: spec.shape, ok: spec.expectStatus };
    case 'thingsboard': {
      // Each request a point of its own: ts from the sequence, so no two are one (device, key, ts).
      const token = spec.tokens[seq % spec.tokens.length] as string;
      const body = JSON.stringify({ ts: tsBase + seq, values: { temperature: 20 + (seq % 10) } });
      return { shape: { method: 'POST', path: `/api/v1/${token}/telemetry`, body }, ok: 200 };
    }
    case 'chirpstack': {
      const integration = spec.integrations[seq % spec.integrations.length] as { path: string; secret: string; devEuis: string[] };
      const devEui = integration.devEuis[Math.floor(seq / spec.integrations.length) % integration.devEuis.length] as string;
      const body = JSON.stringify({
        deduplicationId: `bench-${seq}`,
        time: new Date(tsBase + seq).toISOString(),
        deviceInfo: { deviceName: 'bench', devEui: devEui.toLowerCase() },
        fPort: 1,
        data: 'AOE=',
        object: { temperature: 20 + (seq % 10) },
      });
      return {
        shape: { method: 'POST', path: `${integration.path}?event=up`, headers: { 'x-tessera-secret': integration.secret }, body },
        ok: 200,
      };
    }
  }
}

/** Timestamps start a minute back, one millisecond per request: within ingest's window for a long run. */
const tsBase = Date.now() - 60_000;
let seqAll = 0;

async function runPhase(cmd: Extract<TLoadCommand, { kind: 'run' }>): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: cmd.sockets });
  const unexpected: Record<string, number> = {};
  let running = true;
  let counting = false;
  let answered = 0;
  const loops = Array.from({ length: cmd.sockets }, async () => {
    while (running) {
      const { shape, ok } = shapeOf(cmd.spec, seqAll++);
      try {
        const status = await requestOnce(agent, cmd.spec.port, shape);
        if (!counting) continue;
        if (status === ok) answered += 1;
        else unexpected[`HTTP ${status}`] = (unexpected[`HTTP ${status}`] ?? 0) + 1;
      } catch (err) {
        if (counting) unexpected[(err as Error).message.slice(0, 40)] = (unexpected[(err as Error).message.slice(0, 40)] ?? 0) + 1;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  });
  await new Promise((r) => setTimeout(r, cmd.warmupS * 1000));
  send({ kind: 'window', at: 'start' });
  counting = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, cmd.seconds * 1000));
  counting = false;
  const elapsedS = (performance.now() - t0) / 1000;
  send({ kind: 'window', at: 'end' });
  running = false;
  await Promise.all(loops);
  agent.destroy();
  send({ kind: 'phase', name: cmd.name, answered, elapsedS, unexpected });
}

process.on('message', (cmd: TLoadCommand) => {
  if (cmd.kind === 'end') process.exit(0);
  void runPhase(cmd);
});
