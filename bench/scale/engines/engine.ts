/**
 * What the engine comparison needs of a broker it started: its MQTT port for the devices, the consumer's
 * connection, the pid whose CPU it reports, a kill -9 and a restart on the same data directory.
 */

/** How a consumer reaches the engine (a plain JSON value: it is handed to the consumer process). */
export type TConsumerTarget =
  | { kind: 'mqtt-shared'; url: string }
  | { kind: 'mqtt-baseline'; url: string }
  | { kind: 'amqp'; url: string; queueType: 'classic' | 'quorum' }
  | { kind: 'jetstream'; url: string };

/** A broker process this benchmark owns, on its own ports and temporary data directory. */
export interface TEngine {
  /** The table's row name. */
  name: string;
  /** Loopback port of the MQTT listener the devices publish to. */
  mqttPort: number;
  /** Device credentials, where the engine asks for them (RabbitMQ). */
  deviceLogin?: { username: string; password: string };
  consumer: TConsumerTarget;
  /** Starts the engine (first time: a fresh data directory) and resolves when its listeners accept connections. */
  start(): Promise<void>;
  /** The pid whose /proc CPU is the engine's (the broker process itself, not a wrapper script). */
  pid(): number;
  /** kill -9 of the broker process (whatever it held only in memory is gone); resolves once the process is gone. */
  kill9(): Promise<void>;
  /** Stops the engine (SIGKILL) and removes its data directory. */
  dispose(): Promise<void>;
}
