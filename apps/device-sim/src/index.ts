/**
 * Device simulator: runs simulated devices as real MQTT clients — telemetry at
 * `rateHz`, status words every `statusPeriodMs`, command replies, retained config applied, AI models downloaded and
 * verified. Used by the CLI (`npm run sim`), the demo and the tests.
 */
import { SimulatedDevice, type TSimCounters } from './device.js';
import { SimulatedGateway } from './gateway.js';
import { DEFAULT_KEYS, type TVibrationProfile } from './generators.js';
import type { TInstalledModel, TModelFault } from './model-receiver.js';
import type { TSimProtocol } from './thingsboard.js';

/** One simulated device's credentials. */
export interface TSimDevice {
  tangramId: string;
  secret: string;
  /** Telemetry keys to publish (default: temperature, humidity, vibration, current). */
  keys?: string[];
  /** How its vibration behaves (generators.ts VIBRATION_PROFILES); `steady` by default. */
  vibrationProfile?: TVibrationProfile;
  /**
   * Corrupts its model downloads so that they fail with `sha256 mismatch`: `corrupt-once` only its first finished
   * download (a retry installs), `corrupt-always` every one. None by default.
   */
  modelFault?: TModelFault;
  /** `thingsboard`: `secret` is its access token and it speaks ThingsBoard's MQTT API (thingsboard.ts). */
  protocol?: TSimProtocol;
}

/** Simulator options. */
export interface TSimOptions {
  /** Broker URL: mqtt://host:port or ws://host:port/mqtt. */
  url: string;
  devices: TSimDevice[];
  /** Telemetry messages per second per device (each carries one point per key). */
  rateHz?: number;
  /** Status word publish period, in milliseconds. */
  statusPeriodMs?: number;
  qos?: 0 | 1;
  /**
   * Each device is a ThingsBoard gateway (its `secret` its access token) for `devices` devices named
   * `{namePrefix}1` … (gateway.ts); its own telemetry is then not sent.
   */
  gateway?: { devices: number; namePrefix?: string };
}

/** A running simulator. */
export interface TSimulator {
  /** Points published and acknowledged so far, commands answered, configs applied, models installed and failed. */
  stats(): TSimCounters;
  /**
   * The model device `tangramId` holds (`{ deploymentId, attempt, modelId, revision, sha256, bytes }`), or null when
   * it holds none. A failed install keeps the model held before.
   * @throws Error when no device of this simulator has that Tangram ID.
   */
  installedModel(tangramId: string): TInstalledModel | null;
  /** Stops every device (each waits at most `graceMs` for its acknowledgements; device.ts STOP_GRACE_MS by default). */
  stop(graceMs?: number): Promise<void>;
}

/** Default status period, in milliseconds. */
export const DEFAULT_STATUS_PERIOD_MS = 10_000;

/**
 * Connects every device and starts publishing. Resolves once all are connected; from then on each device
 * reconnects by itself after any refusal or lost connection, with backoff (reconnect.ts).
 * @throws the connection error of the first device that could not connect (the others are stopped); a server
 * answering "server unavailable" is waited out, not an error.
 */
export async function startSimulator(opts: TSimOptions): Promise<TSimulator> {
  const counters: TSimCounters = {
    published: 0,
    acked: 0,
    commandsAnswered: 0,
    configsApplied: 0,
    refusals: 0,
    modelsInstalled: 0,
    modelsFailed: 0,
  };
  const rateHz = opts.rateHz ?? 1;
  const gatewayOf = opts.gateway;
  const started = await Promise.allSettled(
    opts.devices.map(
      (d, i): Promise<SimulatedDevice | SimulatedGateway> =>
        gatewayOf
          ? SimulatedGateway.start({
              url: opts.url,
              token: d.secret,
              childCount: gatewayOf.devices,
              namePrefix: gatewayOf.namePrefix,
              keys: d.keys ?? [...DEFAULT_KEYS],
              basePeriodMs: Math.max(1, Math.round(1000 / rateHz)),
              qos: opts.qos ?? 1,
              counters,
              seed: i + 1,
              vibrationProfile: d.vibrationProfile ?? 'steady',
            })
          : SimulatedDevice.start({
              url: opts.url,
              tangramId: d.tangramId,
              secret: d.secret,
              keys: d.keys ?? [...DEFAULT_KEYS],
              basePeriodMs: Math.max(1, Math.round(1000 / rateHz)),
              statusPeriodMs: opts.statusPeriodMs ?? DEFAULT_STATUS_PERIOD_MS,
              qos: opts.qos ?? 1,
              counters,
              seed: i + 1,
              vibrationProfile: d.vibrationProfile ?? 'steady',
              modelFault: d.modelFault,
              protocol: d.protocol,
            }),
    ),
  );
  const devices = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(devices.map((d) => d.stop()));
    throw failed.reason;
  }
  return {
    stats: () => ({ ...counters }),
    installedModel: (tangramId) => {
      const device = devices.find((d): d is SimulatedDevice => d instanceof SimulatedDevice && d.tangramId === tangramId);
      if (!device) throw new Error(`no simulated device ${tangramId}`);
      return device.installedModel();
    },
    stop: async (graceMs) => {
      await Promise.all(devices.map((d) => d.stop(graceMs)));
    },
  };
}

export { applyConfig, initialSchedule } from './schedule.js';
export { answerCommand, SIM_FIRMWARE_VERSION } from './commands.js';
export { DEFAULT_KEYS, seededRandom, valuesOf, VIBRATION_PROFILES, type TVibrationProfile } from './generators.js';
export { RECONNECT_FIRST_MS, RECONNECT_MAX_MS, reconnectDelayMs } from './reconnect.js';
export type { TSimCounters } from './device.js';
export { MODEL_FAULTS, type TInstalledModel, type TModelFault } from './model-receiver.js';
export { bleProof } from './ble-proof.js';
export { gatewayDeviceNames } from './gateway.js';
