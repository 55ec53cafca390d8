/**
 * The settings of running Tessera as a service (docs/deployment.md "Metrics", "MQTT over TLS"): the metrics endpoint
 * and the embedded broker's listeners. Part of the environment parsed by config.ts.
 */
import { z } from 'zod';

/** The MQTT-over-TLS port when a certificate is given and MQTT_TLS_PORT is not (IANA's secure-mqtt). */
export const MQTT_TLS_PORT_DEFAULT = 8883;

const ZPort = z.coerce.number().int().min(0).max(65535);

/** The variables, merged into config.ts's environment schema. */
export const ZServiceEnv = {
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters (e.g. `openssl rand -hex 32`)').max(1024).optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  DEVICE_HTTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  MQTT_PLAIN: z
    .enum(['0', '1', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .optional(),
  MQTT_TLS_PORT: ZPort.optional(),
  MQTT_TLS_CERT: z.string().min(1).optional(),
  MQTT_TLS_KEY: z.string().min(1).optional(),
  MQTT_TLS_CA: z.string().min(1).optional(),
};

type TServiceEnv = z.output<z.ZodObject<typeof ZServiceEnv>>;

/** The embedded broker's TLS listener: PEM files, re-read when they change (modules/ingest/tls-listener.ts). */
export interface TMqttTlsConfig {
  port: number;
  certFile: string;
  keyFile: string;
  /** CA bundle whose client certificates are asked for and checked (certificate login); unset: none asked. */
  caFile?: string;
  /** How often the files are checked for a change, in ms (default 2 s; tests shorten it; not an environment variable). */
  watchIntervalMs?: number;
}

/** The service settings of TConfig. */
export interface TServiceConfig {
  /** METRICS_TOKEN: the bearer token of `GET /metrics`; unset, the endpoint answers 401 to everyone. */
  metricsToken?: string;
  /** METRICS_PORT: serve `/metrics` only on 127.0.0.1:<port> (0: a free port) instead of the main HTTP port. */
  metricsPort?: number;
  /**
   * DEVICE_HTTP_PORT: also serve the LoRaWAN uplink webhook on <port> (HOST's address; 0: a free port), parsed on a
   * thread of its own (app/device-http.ts). Unset: only the main HTTP port serves it.
   */
  deviceHttpPort?: number;
  /** MQTT_PLAIN (default on): the embedded broker's plain-TCP listener on MQTT_PORT; off leaves TLS and `/mqtt`. */
  mqttPlain: boolean;
  /** MQTT over TLS, when MQTT_TLS_CERT and MQTT_TLS_KEY are set. */
  mqttTls?: TMqttTlsConfig;
}

/**
 * The service settings from the parsed environment.
 * @throws Error (one line naming the variable) when only one of MQTT_TLS_CERT/MQTT_TLS_KEY is set, or MQTT_TLS_CA or
 * MQTT_TLS_PORT without them.
 */
export function serviceConfigOf(e: TServiceEnv): TServiceConfig {
  if (!e.MQTT_TLS_CERT !== !e.MQTT_TLS_KEY) {
    throw new Error('invalid MQTT_TLS_CERT/MQTT_TLS_KEY: set both (PEM files of the certificate chain and its key) or neither');
  }
  if ((e.MQTT_TLS_CA || e.MQTT_TLS_PORT !== undefined) && !e.MQTT_TLS_CERT) {
    throw new Error(`invalid ${e.MQTT_TLS_CA ? 'MQTT_TLS_CA' : 'MQTT_TLS_PORT'}: MQTT over TLS needs MQTT_TLS_CERT and MQTT_TLS_KEY`);
  }
  return {
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    deviceHttpPort: e.DEVICE_HTTP_PORT,
    mqttPlain: e.MQTT_PLAIN ?? true,
    mqttTls:
      e.MQTT_TLS_CERT && e.MQTT_TLS_KEY
        ? { port: e.MQTT_TLS_PORT ?? MQTT_TLS_PORT_DEFAULT, certFile: e.MQTT_TLS_CERT, keyFile: e.MQTT_TLS_KEY, caFile: e.MQTT_TLS_CA }
        : undefined,
  };
}
