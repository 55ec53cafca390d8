/**
 * What an attacker from one address does to the server, and what another address sees meanwhile — shared by
 * connection-floods.int.test.ts and bench/floods: sockets held open and re-opened as the server closes them
 * (half-open MQTT, slow-header HTTP), a device login from a chosen local address, a timed HTTP request from one, and
 * a device that publishes its backlog the moment it logs in.
 * Every address is on the loopback range (127.0.0.0/8 is all local on Linux).
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { deviceClientId, topics } from '@tessera/contracts';
import { MqttClient } from 'mqtt';
import mqttPacket from 'mqtt-packet';

/** Sockets held by {@link holdSockets}. */
export interface THeldSockets {
  /** Sockets the server closed so far (each was re-opened). */
  readonly closedByServer: number;
  /** Sockets open now. */
  readonly open: number;
  /** Closes every socket and stops re-opening. */
  stop(): void;
}

/**
 * Keeps `count` TCP sockets from `localAddress` open to `host:port`, re-opening each one the server closes after
 * `reopenMs`, until stopped; `onOpen` may write to each (a slow request, nothing for a half-open MQTT connection).
 */
export function holdSockets(
  target: { host: string; port: number },
  count: number,
  opts: { localAddress: string; reopenMs?: number; onOpen?: (s: Socket) => void },
): THeldSockets {
  let stopped = false;
  let closedByServer = 0;
  const sockets = new Set<Socket>();
  const open = () => {
    if (stopped) return;
    const s = connect({ port: target.port, host: target.host, localAddress: opts.localAddress });
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('connect', () => opts.onOpen?.(s));
    s.on('close', () => {
      sockets.delete(s);
      if (stopped) return;
      closedByServer += 1;
      setTimeout(open, opts.reopenMs ?? 5);
    });
  };
  for (let i = 0; i < count; i++) open();
  return {
    get closedByServer() {
      return closedByServer;
    },
    get open() {
      return sockets.size;
    },
    stop() {
      stopped = true;
      for (const s of sockets) s.destroy();
    },
  };
}

/** Starts a request head and then sends one more header line every `everyMs` (a slow-header client). */
export function dripHeaders(everyMs: number): (s: Socket) => void {
  return (s) => {
    s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => s.write(`X-Slow-${Date.now()}: 1\r\n`), everyMs);
    s.once('close', () => clearInterval(drip));
  };
}

/**
 * Logs a device in from `localAddress` and out again; answers the time to CONNACK 0 in ms, or null when refused or
 * not answered within `timeoutMs`.
 */
export function timedDeviceLogin(
  target: { host: string; port: number },
  device: { tangramId: string; secret: string },
  localAddress: string,
  timeoutMs = 2_000,
): Promise<number | null> {
  const started = performance.now();
  return new Promise((resolve) => {
    const client = new MqttClient(() => connect({ port: target.port, host: target.host, localAddress }), {
      username: device.tangramId,
      password: device.secret,
      clientId: deviceClientId(device.tangramId),
      reconnectPeriod: 0,
      connectTimeout: timeoutMs,
    });
    const timer = setTimeout(() => finish(null), timeoutMs);
    const finish = (ms: number | null) => {
      clearTimeout(timer);
      client.end(true);
      resolve(ms);
    };
    client.once('connect', () => finish(performance.now() - started));
    client.once('error', () => finish(null));
  });
}

/** One HTTP request from `localAddress`; answers its status (0: no answer within `timeoutMs`) and its time in ms. */
export function timedRequest(
  target: { host: string; port: number },
  localAddress: string,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 5_000,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: target.host,
        port: target.port,
        method,
        path,
        localAddress,
        timeout: timeoutMs,
        headers: body ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/** Points in one {@link backlogMessage}, and their device-clock spacing in ms (under the per-device rate). */
export const BACKLOG_POINTS = 400;
export const BACKLOG_SPACING_MS = 2;

/** A telemetry message of BACKLOG_POINTS points from `t0`: about 48 KB of JSON, over the before-login packet limit. */
export function backlogMessage(t0: number): string {
  return JSON.stringify(
    Array.from({ length: BACKLOG_POINTS }, (_, i) => ({
      key: 'temperature',
      ts: t0 + i * BACKLOG_SPACING_MS,
      vs: [20 + i / 1000, 1.5, -3.25],
    })),
  );
}

/** A raw MQTT 3.1.1 connection through mqtt-packet (the parser MQTT.js and Aedes use): write packets, await by type. */
function rawMqtt(target: {
  host: string;
  port: number;
}): Promise<{ write: (b: Buffer) => void; next: (cmd: string) => Promise<mqttPacket.Packet>; end: () => void }> {
  return new Promise((resolve, reject) => {
    const socket = connect(target.port, target.host, () => resolve({ write: (b) => socket.write(b), next, end: () => socket.end() }));
    socket.once('error', reject);
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    const received: mqttPacket.Packet[] = [];
    const waiting: { cmd: string; resolve: (p: mqttPacket.Packet) => void }[] = [];
    parser.on('packet', (p) => {
      const i = waiting.findIndex((w) => w.cmd === p.cmd);
      if (i >= 0) waiting.splice(i, 1)[0].resolve(p);
      else received.push(p);
    });
    socket.on('data', (d) => parser.parse(d));
    const closed = new Promise<never>((_, rej) => socket.once('close', () => rej(new Error('connection closed by the server'))));
    closed.catch(() => undefined);
    function next(cmd: string): Promise<mqttPacket.Packet> {
      const i = received.findIndex((p) => p.cmd === cmd);
      if (i >= 0) return Promise.resolve(received.splice(i, 1)[0]);
      return Promise.race([new Promise<mqttPacket.Packet>((res) => waiting.push({ cmd, resolve: res })), closed]);
    }
  });
}

/**
 * One login of a device that resends its backlog at once: CONNECT and a {@link backlogMessage} in one TCP write,
 * another right after the CONNACK (points from `t0`, 2 × BACKLOG_POINTS of them). Answers the PUBACKs received (0, 1
 * or 2); a connection the server closes answers what it acknowledged before.
 */
export async function publishBacklogAtLogin(
  target: { host: string; port: number },
  device: { tangramId: string; secret: string },
  t0: number,
): Promise<number> {
  const conn = await rawMqtt(target);
  const publish = (messageId: number, from: number) =>
    mqttPacket.generate({
      cmd: 'publish',
      topic: topics.telemetry(device.tangramId),
      payload: backlogMessage(from),
      qos: 1,
      messageId,
      retain: false,
      dup: false,
    });
  const connectPacket = mqttPacket.generate({
    cmd: 'connect',
    protocolId: 'MQTT',
    protocolVersion: 4,
    clean: true,
    keepalive: 30,
    clientId: deviceClientId(device.tangramId),
    username: device.tangramId,
    password: Buffer.from(device.secret),
  });
  let acked = 0;
  try {
    conn.write(Buffer.concat([connectPacket, publish(1, t0)]));
    if (((await conn.next('connack')) as mqttPacket.IConnackPacket).returnCode !== 0) return 0;
    conn.write(publish(2, t0 + BACKLOG_POINTS * BACKLOG_SPACING_MS));
    for (let i = 0; i < 2; i++) {
      await conn.next('puback');
      acked += 1;
    }
  } catch {
    return acked;
  } finally {
    conn.end();
  }
  return acked;
}
