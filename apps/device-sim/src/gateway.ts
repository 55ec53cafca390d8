/**
 * The simulator acting as a ThingsBoard gateway (docs/protocol.md "ThingsBoard gateway API (MQTT)"): one MQTT
 * connection, logged in with the gateway's access token, for `childCount` devices named `{prefix}1` … `{prefix}N`.
 * On every (re)connection it says each is connected (`v1/gateway/connect`) and reports their client attributes
 * (`v1/gateway/attributes`); then, every tick, one `v1/gateway/telemetry` message holds each device's `[{ts, values}]`;
 * an RPC for one of them (`v1/gateway/rpc` `{device, data: {id, method, params}}`) is answered as that device would
 * answer the native command, `{device, id, data}`.
 */
import { GATEWAY_TOPICS } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { answerCommand, type TCommandState } from './commands.js';
import { STOP_GRACE_MS, type TSimCounters } from './device.js';
import { seededRandom, valuesOf, type TVibrationProfile } from './generators.js';
import { connectWithBackoff } from './reconnect.js';
import { initialSchedule } from './schedule.js';
import { thingsboardClientAttributes, thingsboardLogin, thingsboardTelemetry } from './thingsboard.js';

/** How a simulated gateway runs. */
export interface TGatewayRunOptions {
  url: string;
  /** The gateway's access token. */
  token: string;
  childCount: number;
  /** Names of the devices behind it: `{namePrefix}{1…N}` (default `sim-`). */
  namePrefix?: string;
  keys: readonly string[];
  basePeriodMs: number;
  qos: 0 | 1;
  counters: TSimCounters;
  seed: number;
  vibrationProfile: TVibrationProfile;
}

/** The names a simulated gateway gives its `count` devices. */
export function gatewayDeviceNames(count: number, prefix = 'sim-'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
}

/**
 * The answer to a gateway RPC request `payload` (`{device, data: {id, method, params}}`) for one of `names`, or null
 * when it is not such a request.
 */
export function gatewayRpcAnswer(payload: unknown, names: ReadonlySet<string>, state: TCommandState, nowMs: number): string | null {
  const req = (typeof payload === 'object' && payload !== null ? payload : {}) as { device?: unknown; data?: unknown };
  const data = (typeof req.data === 'object' && req.data !== null ? req.data : {}) as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof req.device !== 'string' || !names.has(req.device) || data.id === undefined) return null;
  const reply = answerCommand({ name: data.method, params: data.params ?? {} }, state, nowMs);
  return JSON.stringify({ device: req.device, id: data.id, data: reply.ok ? reply.result : { error: reply.error } });
}

/** A connected simulated gateway. */
export class SimulatedGateway {
  private tick: NodeJS.Timeout | null = null;
  private readonly names: string[];
  private readonly rnd;
  private readonly startedAt = Date.now();

  private constructor(
    private readonly client: MqttClient,
    private readonly o: TGatewayRunOptions,
  ) {
    this.names = gatewayDeviceNames(o.childCount, o.namePrefix);
    this.rnd = seededRandom(o.seed);
  }

  /** Connects (with backoff, reconnecting by itself), announces its devices and starts publishing their telemetry. */
  static async start(o: TGatewayRunOptions): Promise<SimulatedGateway> {
    const client = await connectWithBackoff(o.url, thingsboardLogin(o.token, o.seed), {
      onRefused: () => {
        o.counters.refusals += 1;
      },
    });
    const gateway = new SimulatedGateway(client, o);
    client.on('message', (topic, payload) => gateway.onMessage(topic, payload));
    await client.subscribeAsync([GATEWAY_TOPICS.rpc, GATEWAY_TOPICS.attributes], { qos: 1 });
    gateway.announce();
    // After a reconnection the server knows none of its devices: say them again.
    client.on('connect', () => gateway.announce());
    gateway.tick = setInterval(() => gateway.publishTelemetry(), o.basePeriodMs);
    return gateway;
  }

  /** Stops publishing, waits at most `graceMs` for acknowledgements in flight, and disconnects (its devices go offline). */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    if (this.tick) clearInterval(this.tick);
    if (Object.keys(this.client.outgoing).length > 0 && this.client.connected) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
        this.client.once('outgoingEmpty', resolve);
      });
      clearTimeout(timer);
    }
    await this.client.endAsync(true);
  }

  private announce(): void {
    for (const device of this.names) this.client.publish(GATEWAY_TOPICS.connect, JSON.stringify({ device }), { qos: 1 });
    const attributes = Object.fromEntries(this.names.map((n, i) => [n, thingsboardClientAttributes(this.o.keys, this.o.seed * 1000 + i)]));
    this.client.publish(GATEWAY_TOPICS.attributes, JSON.stringify(attributes), { qos: 1 });
  }

  private publishTelemetry(): void {
    if (!this.client.connected) return;
    const now = Date.now();
    const message: Record<string, unknown> = {};
    let points = 0;
    for (const name of this.names) {
      const devicePoints = this.o.keys.map((key) => ({ key, ts: now, vs: valuesOf(key, now, this.rnd, this.o.vibrationProfile) }));
      message[name] = thingsboardTelemetry(devicePoints);
      points += devicePoints.length;
    }
    this.o.counters.published += points;
    this.client.publish(GATEWAY_TOPICS.telemetry, JSON.stringify(message), { qos: this.o.qos }, (err) => {
      if (!err) this.o.counters.acked += points;
    });
  }

  private onMessage(topic: string, payload: Buffer): void {
    if (topic !== GATEWAY_TOPICS.rpc) return;
    let json: unknown = null;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    const state: TCommandState = {
      keys: this.o.keys,
      schedule: initialSchedule(this.o.keys, this.o.basePeriodMs),
      startedAt: this.startedAt,
      rssiDbm: -45 - (this.o.seed % 30),
      rnd: this.rnd,
      vibrationProfile: this.o.vibrationProfile,
    };
    const answer = gatewayRpcAnswer(json, new Set(this.names), state, Date.now());
    if (!answer) return;
    this.client.publish(GATEWAY_TOPICS.rpc, answer, { qos: 1 }, (err) => {
      if (!err) this.o.counters.commandsAnswered += 1;
    });
  }
}
