/**
 * How a simulated device stays connected (docs/protocol.md "Reconnecting"): after it first connected, every lost
 * connection and every refused CONNACK — "server unavailable" while the platform's database is down, and even
 * "not authorised", which a server may answer wrongly during an outage — is retried forever with exponential
 * backoff and jitter, so that a thousand devices do not all come back in the same second. MQTT.js retries at a fixed
 * period and, without `reconnectOnConnackError`, never again after a refused CONNACK.
 */
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

/** The first retry delay, and the longest, in milliseconds. */
export const RECONNECT_FIRST_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

/** CONNACK 3 "server unavailable" (MQTT 3.1.1 §3.2.2.3); 0x88 is its MQTT 5 reason code. */
const SERVER_UNAVAILABLE = new Set([3, 0x88]);

/**
 * The delay before retry number `attempt` (1 = the first retry): RECONNECT_FIRST_MS doubling up to RECONNECT_MAX_MS,
 * of which a random part (`random` in [0, 1)) up to one half is taken off.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_FIRST_MS * 2 ** Math.max(0, attempt - 1), RECONNECT_MAX_MS);
  return Math.round(ceiling * (1 - random() / 2));
}

/** What a device's connection tells its simulator. */
export interface TConnectionEvents {
  /** A CONNACK refused the device (its return code) or the connection failed; a retry follows. */
  onRefused?: (err: Error & { code?: number | string }) => void;
}

/**
 * Connects `options` (username, password, client id) to `url` and keeps the connection with backoff.
 * Resolves once the first connection is accepted. At that first attempt only "server unavailable" is waited out:
 * another refusal (wrong credentials) or an unreachable broker rejects, so a mistyped command line fails at once.
 * @throws the first connection's error, as above (the client is then ended).
 */
export function connectWithBackoff(url: string, options: IClientOptions, events: TConnectionEvents = {}): Promise<MqttClient> {
  const client = mqtt.connect(url, { ...options, reconnectPeriod: reconnectDelayMs(1), reconnectOnConnackError: true });
  let attempt = 0;
  let connectedOnce = false;
  client.on('connect', () => {
    attempt = 0;
    client.options.reconnectPeriod = reconnectDelayMs(1);
  });
  // MQTT.js schedules the next attempt with the period set when the connection closes: raise it before each attempt.
  client.on('reconnect', () => {
    attempt += 1;
    client.options.reconnectPeriod = reconnectDelayMs(attempt + 1);
  });
  return new Promise((resolve, reject) => {
    client.once('connect', () => {
      connectedOnce = true;
      resolve(client);
    });
    // MQTT.js emits refusals and socket errors as 'error' (a throw when nobody listens); a retry is already planned.
    client.on('error', (err: Error & { code?: number | string }) => {
      events.onRefused?.(err);
      if (connectedOnce || SERVER_UNAVAILABLE.has(err.code as number)) return;
      client.end(true);
      reject(err);
    });
  });
}
