/**
 * One simulated device: a real MQTT.js client (username = Tangram ID, password = secret) that publishes
 * telemetry on its schedule and status words, answers commands (commands.ts) and applies its retained config
 * (docs/protocol.md).
 */
import { deviceClientId, topics, ZDeviceConfig, type TTelemetryPoint } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { answerCommand } from './commands.js';
import { nextStatusWord, seededRandom, valuesOf, type TRandom, type TVibrationProfile } from './generators.js';
import { ModelReceiver, type TInstalledModel, type TModelCounters, type TModelFault } from './model-receiver.js';
import { connectWithBackoff } from './reconnect.js';
import { applyConfig, dueKeys, initialSchedule, tickMs, type TSchedule } from './schedule.js';
import {
  THINGSBOARD_ATTRIBUTES_TOPIC,
  THINGSBOARD_RPC_REQUEST_FILTER,
  THINGSBOARD_TELEMETRY_TOPIC,
  thingsboardClientAttributes,
  thingsboardLogin,
  thingsboardRpcAnswer,
  thingsboardTelemetry,
  type TSimProtocol,
} from './thingsboard.js';

/** How long stop() waits for the acknowledgements of publishes in flight, in milliseconds. */
export const STOP_GRACE_MS = 1_000;

/** Counters shared by the devices of one simulator; `modelsInstalled` and `modelsFailed` count finished installs. */
export interface TSimCounters extends TModelCounters {
  published: number;
  acked: number;
  commandsAnswered: number;
  configsApplied: number;
  /** Connections refused or lost (each is retried with backoff). */
  refusals: number;
}

/** How one device runs. */
export interface TDeviceRunOptions {
  url: string;
  tangramId: string;
  secret: string;
  keys: readonly string[];
  basePeriodMs: number;
  statusPeriodMs: number;
  qos: 0 | 1;
  counters: TSimCounters;
  seed: number;
  vibrationProfile: TVibrationProfile;
  /** Corrupts its model downloads (model-receiver.ts MODEL_FAULTS); none by default. */
  modelFault?: TModelFault;
  /**
   * `thingsboard`: `secret` is the device's access token; telemetry and client attributes on ThingsBoard's topics
   * and commands as its RPC (thingsboard.ts); no status words, config or models (not served to such logins).
   * `native` by default.
   */
  protocol?: TSimProtocol;
}

/** A connected simulated device. */
export class SimulatedDevice {
  private schedule: TSchedule;
  private readonly lastSent = new Map<string, number>();
  private tick: NodeJS.Timeout | null = null;
  private statusTimer: NodeJS.Timeout | null = null;
  private readonly rnd: TRandom;
  private statusWord: number;
  private readonly startedAt = Date.now();
  private readonly model: ModelReceiver;

  private constructor(
    private readonly client: MqttClient,
    private readonly o: TDeviceRunOptions,
  ) {
    this.schedule = initialSchedule(o.keys, o.basePeriodMs);
    this.rnd = seededRandom(o.seed);
    // High bits: a fixed "model/mode" pattern; low bits: flags the generator flips.
    this.statusWord = 0x01_0000_0000 + (o.seed & 0xffff) * 0x100;
    this.model = new ModelReceiver({
      tangramId: o.tangramId,
      secret: o.secret,
      counters: o.counters,
      fault: o.modelFault,
      // Sent even while disconnected: MQTT.js keeps QoS 1 publishes and sends them once connected again.
      publishState: (state) => {
        client.publish(topics.modelState(o.tangramId), JSON.stringify(state), { qos: 1 });
      },
    });
  }

  /**
   * Connects (reconnect.ts: backoff, retries after any refusal once connected), subscribes to commands, config and
   * model (MQTT.js subscribes again after a reconnect; a refused model subscription is not an error), and starts
   * publishing.
   * @throws the first connection's refusal or socket error, except "server unavailable", which is waited out.
   */
  static async start(o: TDeviceRunOptions): Promise<SimulatedDevice> {
    const thingsboard = o.protocol === 'thingsboard';
    const client = await connectWithBackoff(
      o.url,
      thingsboard
        ? thingsboardLogin(o.secret, o.seed)
        : { username: o.tangramId, password: o.secret, clientId: deviceClientId(o.tangramId) },
      {
        onRefused: () => {
          o.counters.refusals += 1;
        },
      },
    );
    const device = new SimulatedDevice(client, o);
    if (thingsboard) {
      client.on('message', (topic, payload) => device.onThingsboardMessage(topic, payload));
      await client.subscribeAsync(THINGSBOARD_RPC_REQUEST_FILTER, { qos: 1 });
      client.publish(THINGSBOARD_ATTRIBUTES_TOPIC, JSON.stringify(thingsboardClientAttributes(o.keys, o.seed)), { qos: 1 });
      device.restartTicker();
      return device;
    }
    client.on('message', (topic, payload) => device.onMessage(topic, payload));
    await client.subscribeAsync([`devices/${o.tangramId}/commands/+`, topics.config(o.tangramId)], { qos: 1 });
    // A broker that refuses the model topic (a platform without AI model deployments) leaves the device without
    // models, not down: MQTT.js rejects the whole subscription when one topic of it is refused.
    await client.subscribeAsync(topics.model(o.tangramId), { qos: 1 }).catch(() => undefined);
    device.restartTicker();
    device.publishStatus();
    device.statusTimer = setInterval(() => device.publishStatus(), o.statusPeriodMs);
    return device;
  }

  /**
   * Stops publishing, waits at most `graceMs` for the acknowledgements of publishes in flight, and disconnects. The
   * wait is bounded because a server that stopped acknowledging (its database is down, it is shutting down) would
   * otherwise keep the simulator from ever stopping.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.model.stop();
    if (this.tick) clearInterval(this.tick);
    if (this.statusTimer) clearInterval(this.statusTimer);
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

  /** The model the device holds (model-receiver.ts), or null. */
  installedModel(): TInstalledModel | null {
    return this.model.installedModel();
  }

  /** The device's full Tangram ID. */
  get tangramId(): string {
    return this.o.tangramId;
  }

  private restartTicker(): void {
    if (this.tick) clearInterval(this.tick);
    this.tick = setInterval(() => this.publishDue(), tickMs(this.schedule, this.o.basePeriodMs));
  }

  private publishDue(): void {
    const now = Date.now();
    const points: TTelemetryPoint[] = dueKeys(this.schedule, this.lastSent, now).map((key) => {
      this.lastSent.set(key, now);
      return { key, ts: now, vs: valuesOf(key, now, this.rnd, this.o.vibrationProfile) };
    });
    if (points.length === 0) return;
    if (this.o.protocol === 'thingsboard') {
      this.send(THINGSBOARD_TELEMETRY_TOPIC, JSON.stringify(thingsboardTelemetry(points)), points.length);
      return;
    }
    this.send(topics.telemetry(this.o.tangramId), JSON.stringify(points), points.length);
  }

  private publishStatus(): void {
    this.statusWord = nextStatusWord(this.statusWord, this.rnd);
    this.send(topics.status(this.o.tangramId), JSON.stringify({ ts: Date.now(), value: this.statusWord }), 1);
  }

  private send(topic: string, payload: string, points: number): void {
    if (!this.client.connected) return;
    this.o.counters.published += points;
    this.client.publish(topic, payload, { qos: this.o.qos }, (err) => {
      if (!err) this.o.counters.acked += points;
    });
  }

  /** What a command needs to know of the device now. */
  private commandState() {
    // A steady, seed-dependent signal strength (−45 … −74 dBm), as a device that does not move would report.
    return {
      keys: this.o.keys,
      schedule: this.schedule,
      startedAt: this.startedAt,
      rssiDbm: -45 - (this.o.seed % 30),
      rnd: this.rnd,
      vibrationProfile: this.o.vibrationProfile,
    };
  }

  /** An RPC request of ThingsBoard's API: answered as the native command would be. */
  private onThingsboardMessage(topic: string, payload: Buffer): void {
    const answer = thingsboardRpcAnswer(topic, safeJson(payload), this.commandState(), Date.now());
    if (!answer) return;
    this.client.publish(answer.topic, answer.body, { qos: 1 }, (err) => {
      if (!err) this.o.counters.commandsAnswered += 1;
    });
  }

  private onMessage(topic: string, payload: Buffer): void {
    const id = this.o.tangramId;
    if (topic === topics.model(id)) {
      void this.model.receive(payload);
      return;
    }
    if (topic === topics.config(id)) {
      const config = ZDeviceConfig.safeParse(safeJson(payload));
      if (!config.success) return;
      this.schedule = applyConfig(this.schedule, config.data);
      this.o.counters.configsApplied += 1;
      this.restartTicker();
      return;
    }
    const reqId = topic.split('/')[3];
    if (!topic.startsWith(`devices/${id}/commands/`) || !reqId || topic.split('/').length !== 4) return;
    const reply = answerCommand(safeJson(payload), this.commandState(), Date.now());
    this.client.publish(topics.commandReply(id, reqId), JSON.stringify(reply), { qos: 1 }, (err) => {
      if (!err) this.o.counters.commandsAnswered += 1;
    });
  }
}

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
}
