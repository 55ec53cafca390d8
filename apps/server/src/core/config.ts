/**
 * Server configuration from the environment (README "Configuration"). Parsed once with zod; a bad value stops
 * start-up with one clear line naming the variable.
 */
import {
  AI_TENANT_DAILY_REQUESTS_DEFAULT,
  AI_TENANT_DAILY_TOKENS_DEFAULT,
  COMMAND_TIMEOUT_DEFAULT_MS,
  COMMAND_TIMEOUT_MAX_MS,
  COMMAND_TIMEOUT_MIN_MS,
  DEFAULT_WEB_PUSH_ORIGINS,
} from '@tessera/contracts';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { DB_TIMEOUT_DEFAULTS } from '../db/pg-pool.js';
import { connectionBudget, openFileLimit } from './connection-limits.js';
import { auditConfigOf, type TAuditConfig, ZAuditEnv } from './config-audit.js';
import { serviceConfigOf, type TServiceConfig, ZServiceEnv } from './config-service.js';

/**
 * How long a graceful stop (SIGTERM) may take before the process exits anyway, in milliseconds: below `docker stop`'s
 * 10 s, so the drain finishes before the container runtime kills the process.
 */
export const SHUTDOWN_TIMEOUT_DEFAULT_MS = 8_000;

/**
 * Default MQTT connections from one address: high enough for a gateway or a NAT in front of a plant's devices, low
 * enough that one host cannot take every socket. Default connections not yet logged in, from all addresses.
 */
export const MQTT_MAX_CONNECTIONS_PER_IP_DEFAULT = 2_000;
export const MQTT_MAX_PENDING_CONNECTS_DEFAULT = 1_000;
/**
 * Default connections not yet logged in from one address group: a tenth of the pending pool, so one host holding
 * half-open sockets leaves nine tenths of the logins to everyone else.
 */
export const MQTT_MAX_PENDING_CONNECTS_PER_IP_DEFAULT = 100;
/**
 * Default HTTP connections from one address group: a floor of browsers (each holds up to 6 connections and the
 * `/mqtt` WebSocket) behind one office NAT. A trusted proxy's connections are not counted per address.
 */
export const HTTP_MAX_CONNECTIONS_PER_IP_DEFAULT = 256;

/**
 * Default QR-login event streams one replica holds while they wait, from all addresses and from one address
 * (docs/decisions/auth.md "QR login": a waiting stream costs a socket and no query; the caps bound the sockets).
 */
export const QR_LOGIN_MAX_STREAMS_DEFAULT = 2_000;
export const QR_LOGIN_MAX_STREAMS_PER_IP_DEFAULT = 20;

/**
 * The telemetry storage job's defaults (docs/decisions/telemetry-storage.md): a UTC day stays hot (uncompressed rows)
 * for 24 h after it ended, the job (partitions ahead, compression, retention) runs every 10 minutes, and its work is
 * paced to be busy at most 10 % of the time (measured: docs/decisions/telemetry-storage.md "Pacing").
 */
export const TELEMETRY_HOT_WINDOW_DEFAULT_HOURS = 24;
export const TELEMETRY_STORAGE_INTERVAL_DEFAULT_MS = 600_000;
export const TELEMETRY_STORAGE_BUSY_DEFAULT_PERCENT = 10;

const ZPort = z.coerce.number().int().min(0).max(65535);
const ZFlag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY: a comma-separated list of proxy addresses, CIDR ranges or range names. */
const ZTrustProxy = z.string().transform((value, ctx) => {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !isProxyAddress(e));
  if (entries.length === 0 || bad !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `name the proxies (addresses, CIDR ranges, loopback/linklocal/uniquelocal) ${bad ? `; not an address: ${bad}` : ''}`,
    });
    return z.NEVER;
  }
  return entries;
});

const ZEnv = z.object({
  ...ZAuditEnv,
  PORT: ZPort.default(8080),
  MQTT_PORT: ZPort.default(1883),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  BLOB_DIR: z.string().optional(),
  BLOB_STORE: z.enum(['directory', 'database']).optional(),
  DATABASE_URL: z.string().url().optional(),
  MQTT_URL: z.string().url().optional(),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - (1 to 64)')
    .default('tessera'),
  AMQP_URL: z.url({ protocol: /^amqps?$/ }).optional(),
  BROKER_AUTH_SECRET: z.string().min(32).max(1024).optional(),
  RABBITMQ_MANAGEMENT_URL: z.url({ protocol: /^https?$/ }).optional(),
  PUBLIC_MQTT_URL: z.string().url().optional(),
  PAGES_ORIGIN: z
    .url({ protocol: /^https?$/ })
    .transform((v) => new URL(v).origin)
    .optional(),
  SMTP_URL: z.string().url().optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  MAIL_FROM: z.string().default('Tessera <no-reply@tessera.local>'),
  JWT_SECRET: z.string().min(32).optional(),
  SECRETS_KEY: z.string().min(32).optional(),
  LINE_API_BASE: z
    .url({ protocol: /^https?$/ })
    .transform((v) => v.replace(/\/+$/, ''))
    .default('https://api.line.me'),
  AI_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  AI_API_KEY: z.string().trim().min(1).max(4096).optional(),
  AI_MODEL: z.string().trim().min(1).max(200).optional(),
  AI_TENANT_DAILY_REQUESTS: z.coerce.number().int().min(0).max(10_000_000).default(AI_TENANT_DAILY_REQUESTS_DEFAULT),
  AI_TENANT_DAILY_TOKENS: z.coerce.number().int().min(0).max(10_000_000_000).default(AI_TENANT_DAILY_TOKENS_DEFAULT),
  DEMO: ZFlag.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  INGEST_BATCH_MAX: z.coerce.number().int().min(1).max(100_000).default(5_000),
  INGEST_FLUSH_MS: z.coerce.number().int().min(1).max(10_000).default(20),
  INGEST_STALL_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  COMMAND_TIMEOUT_MS: z.coerce.number().int().min(COMMAND_TIMEOUT_MIN_MS).max(COMMAND_TIMEOUT_MAX_MS).default(COMMAND_TIMEOUT_DEFAULT_MS),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DB_TIMEOUT_DEFAULTS.connectMs),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(86_400_000).default(DB_TIMEOUT_DEFAULTS.statementMs),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(SHUTDOWN_TIMEOUT_DEFAULT_MS),
  TELEMETRY_HOT_WINDOW_HOURS: z.coerce.number().int().min(1).max(168).default(TELEMETRY_HOT_WINDOW_DEFAULT_HOURS),
  TELEMETRY_STORAGE_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(TELEMETRY_STORAGE_INTERVAL_DEFAULT_MS),
  TELEMETRY_STORAGE_BUSY_PERCENT: z.coerce.number().int().min(1).max(100).default(TELEMETRY_STORAGE_BUSY_DEFAULT_PERCENT),
  TRUST_PROXY: ZTrustProxy.optional(),
  MQTT_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(MQTT_MAX_CONNECTIONS_PER_IP_DEFAULT),
  MQTT_MAX_PENDING_CONNECTS: z.coerce.number().int().min(1).max(1_000_000).default(MQTT_MAX_PENDING_CONNECTS_DEFAULT),
  MQTT_MAX_PENDING_CONNECTS_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(MQTT_MAX_PENDING_CONNECTS_PER_IP_DEFAULT),
  MQTT_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(10_000_000).optional(),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(10_000_000).optional(),
  HTTP_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(HTTP_MAX_CONNECTIONS_PER_IP_DEFAULT),
  QR_LOGIN_MAX_STREAMS: z.coerce.number().int().min(1).max(1_000_000).default(QR_LOGIN_MAX_STREAMS_DEFAULT),
  QR_LOGIN_MAX_STREAMS_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(QR_LOGIN_MAX_STREAMS_PER_IP_DEFAULT),
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{80,100}$/, 'a base64url P-256 public key')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{40,50}$/, 'a base64url P-256 private key')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, 'a mailto: or https: URL')
    .optional(),
  WEB_PUSH_ORIGINS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/, 'origins like https://fcm.googleapis.com')).min(1))
    .optional(),
  WEBHOOK_PRIVATE_NETWORKS: ZFlag.default(false),
  ...ZServiceEnv,
});

/** The server's settings. Ports 0 pick a free port (tests). Metrics and broker listeners: config-service.ts. */
export interface TConfig extends TServiceConfig {
  port: number;
  mqttPort: number;
  host: string;
  dataDir: string;
  /**
   * Where files (download packages, AI model revisions) are kept (core/blob-store.ts): `directory` (BLOB_DIR) or
   * `database` (chunks in the database, shared by every replica). BLOB_STORE; default `directory` embedded,
   * `database` with DATABASE_URL.
   */
  blobStore: 'directory' | 'database';
  /** The directory of the `directory` blob store: BLOB_DIR, else `{DATA_DIR}/blobs`. */
  blobDir: string;
  databaseUrl?: string;
  mqttUrl?: string;
  /**
   * MQTT_SHARE_GROUP: the shared-subscription group (`$share/{group}/devices/+/telemetry`, MQTT 5 §4.8.2) every replica
   * of one deployment joins on MQTT_URL's broker; `tessera` unless two deployments share a broker.
   */
  mqttShareGroup: string;
  /**
   * The queue engine (docs/decisions/scale-out.md): RabbitMQ's AMQP address (amqp[s]://user:password@host:port/vhost).
   * With MQTT_URL (RabbitMQ's MQTT listener) replicas drain the durable ingest queue instead of shared subscriptions.
   */
  amqpUrl?: string;
  /**
   * BROKER_AUTH_SECRET (≥ 32 characters): when set, the server answers RabbitMQ's HTTP auth backend at
   * `/internal/broker-auth/rabbitmq/*` for the Basic credentials `rabbitmq:<secret>` (modules/ingest/rabbitmq-auth.ts).
   */
  brokerAuthSecret?: string;
  /**
   * The queue engine's management API with credentials (http://user:password@rabbitmq:15672): where a revoked device's
   * RabbitMQ connections are closed (modules/ingest/device-revocation.ts).
   */
  rabbitmqManagementUrl?: string;
  /** The broker address devices are told to use (project system tab), e.g. mqtts://mqtt.example.com:8883. */
  publicMqttUrl?: string;
  /** Origin (scheme://host[:port]) serving custom pages when they get their own host, e.g. https://pages.example.com. */
  pagesOrigin?: string;
  smtpUrl?: string;
  /** Where people reach the console (scheme://host[/base], no trailing slash); links in notification mail. */
  publicUrl?: string;
  mailFrom: string;
  jwtSecret?: string;
  /** Key material (≥ 32 chars) for secrets stored encrypted (core/secret-box.ts); generated and kept in the database when unset. */
  secretsKey?: string;
  /** Base URL of the LINE Messaging API (no trailing slash); tests point it at a local fake. */
  lineApiBase: string;
  /**
   * The AI assistant's OpenAI-compatible chat-completions endpoint (docs/decisions/ai.md "Assistant"): `baseUrl` (no
   * trailing slash; `{baseUrl}/chat/completions` is called), `apiKey` (sent as a bearer token when set; never answered
   * by the API) and `model`; the assistant is configured when `baseUrl` and `model` are set. Per-tenant limits per UTC
   * day: model calls and tokens.
   */
  ai: { baseUrl?: string; apiKey?: string; model?: string; dailyRequests: number; dailyTokens: number };
  /** Load the demo on an empty database (default: on in embedded mode, off with DATABASE_URL). */
  demo: boolean;
  logLevel: string;
  /** Folder of the built console; served at `/` when it exists. */
  webDist?: string;
  /** Ingest: points per batch at most, and the longest a point waits for its batch, in milliseconds. */
  ingestBatchMax: number;
  ingestFlushMs: number;
  /** GET /healthz reports ingest `stalled` when publishes waited this long with no batch committing, in ms. */
  ingestStallMs: number;
  /** Remote control: how long a command waits for the device's reply, in milliseconds (docs/decisions/device-control.md). */
  commandTimeoutMs: number;
  /** PostgreSQL: opening a connection or waiting for a free one, and PostgreSQL's statement_timeout, in ms (db/pg-pool.ts). */
  dbConnectTimeoutMs: number;
  dbStatementTimeoutMs: number;
  /** A graceful stop's deadline, in milliseconds (core/shutdown.ts). */
  shutdownTimeoutMs: number;
  /**
   * Raw telemetry storage (docs/decisions/telemetry-storage.md): how long a UTC day stays hot after it ended, in ms
   * (TELEMETRY_HOT_WINDOW_HOURS), the storage job's interval in ms (0: the job never runs on this replica), and the
   * share of the time in percent its paced work may take (TELEMETRY_STORAGE_BUSY_PERCENT, 1–100).
   */
  telemetryHotWindowMs: number;
  telemetryStorageIntervalMs: number;
  telemetryStorageBusyPercent: number;
  /**
   * Which peers may set the client address and scheme through `X-Forwarded-For`/`-Proto` (Fastify `trustProxy`):
   * the proxies' addresses or CIDR ranges (or proxy-addr's `loopback`, `linklocal`, `uniquelocal`).
   * Unset: no one, the TCP peer is the client (docs/deployment.md "Behind a reverse proxy").
   */
  trustProxy?: string[];
  /**
   * Embedded broker: open MQTT connections (TCP and /mqtt) from one address, and connections not yet logged in from
   * all addresses; more are closed at once (modules/ingest/broker-guard.ts).
   */
  mqttMaxConnectionsPerIp: number;
  mqttMaxPendingConnects: number;
  /** Embedded broker: connections not yet logged in from one address group (core/connection-limits.ts). */
  mqttMaxPendingConnectsPerIp: number;
  /**
   * Open connections in total, MQTT (embedded broker, TCP and `/mqtt`) and HTTP; more are closed at accept. Defaults
   * split the process's open-file limit (core/connection-limits.ts `connectionBudget`).
   */
  mqttMaxConnections: number;
  httpMaxConnections: number;
  /** HTTP connections from one address group; a trusted proxy's are not counted (core/http-connection-guard.ts). */
  httpMaxConnectionsPerIp: number;
  /**
   * QR login: waiting event streams this replica holds at most, from all addresses and from one client address; more
   * are refused with 503 QR_LOGIN_BUSY or 429 QR_LOGIN_TOO_MANY_STREAMS (modules/auth/qr-login-waiters.ts).
   */
  qrLoginMaxStreams: number;
  qrLoginMaxStreamsPerIp: number;
  /** The VAPID key pair (base64url) of Web Push when set in the environment; otherwise kept in the database. */
  vapidKeys?: { publicKey: string; privateKey: string };
  /** The VAPID contact (`mailto:` or `https:`); default `mailto:` the address of MAIL_FROM. */
  vapidSubject?: string;
  /** The push-service origins a browser subscription may point at (modules/web-push/endpoint-policy.ts). */
  webPushOrigins: string[];
  /** Webhooks may be sent to loopback and private addresses (modules/webhooks/destination-policy.ts). */
  webhookPrivateNetworks: boolean;
  /** The audit log's settings (config-audit.ts). */
  auditRetentionDays: TAuditConfig['auditRetentionDays'];
  auditLog: TAuditConfig['auditLog'];
}

/** Thrown for a bad environment variable; `message` is one line naming it. */
export class ConfigError extends Error {}

/**
 * Reads the configuration from `env`.
 * @throws ConfigError naming the first bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, fdLimit: number | null = openFileLimit()): TConfig {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid ${String(issue.path[0])}: ${issue.message}`);
  }
  const e = parsed.data;
  if (!e.VAPID_PUBLIC_KEY !== !e.VAPID_PRIVATE_KEY) {
    throw new ConfigError(
      'invalid VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY: set both (a pair from `npx web-push generate-vapid-keys`) or neither',
    );
  }
  if (e.AMQP_URL && !e.MQTT_URL) {
    throw new ConfigError('invalid AMQP_URL: the queue engine also needs MQTT_URL (the MQTT listener of the same RabbitMQ)');
  }
  if (!e.AI_BASE_URL !== !e.AI_MODEL) {
    throw new ConfigError('invalid AI_BASE_URL/AI_MODEL: set both (an OpenAI-compatible endpoint and its model) or neither');
  }
  let service: TServiceConfig;
  try {
    service = serviceConfigOf(e);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  return {
    ...service,
    port: e.PORT,
    mqttPort: e.MQTT_PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    blobStore: e.BLOB_STORE ?? (e.DATABASE_URL ? 'database' : 'directory'),
    blobDir: e.BLOB_DIR ?? join(e.DATA_DIR, 'blobs'),
    databaseUrl: e.DATABASE_URL,
    mqttUrl: e.MQTT_URL,
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    amqpUrl: e.AMQP_URL,
    brokerAuthSecret: e.BROKER_AUTH_SECRET,
    rabbitmqManagementUrl: e.RABBITMQ_MANAGEMENT_URL,
    publicMqttUrl: e.PUBLIC_MQTT_URL,
    pagesOrigin: e.PAGES_ORIGIN,
    smtpUrl: e.SMTP_URL,
    publicUrl: e.PUBLIC_URL,
    mailFrom: e.MAIL_FROM,
    jwtSecret: e.JWT_SECRET,
    secretsKey: e.SECRETS_KEY,
    lineApiBase: e.LINE_API_BASE,
    ai: {
      baseUrl: e.AI_BASE_URL,
      apiKey: e.AI_API_KEY,
      model: e.AI_MODEL,
      dailyRequests: e.AI_TENANT_DAILY_REQUESTS,
      dailyTokens: e.AI_TENANT_DAILY_TOKENS,
    },
    demo: e.DEMO ?? !e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    ingestBatchMax: e.INGEST_BATCH_MAX,
    ingestFlushMs: e.INGEST_FLUSH_MS,
    ingestStallMs: e.INGEST_STALL_MS,
    commandTimeoutMs: e.COMMAND_TIMEOUT_MS,
    dbConnectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    telemetryHotWindowMs: e.TELEMETRY_HOT_WINDOW_HOURS * 3_600_000,
    telemetryStorageIntervalMs: e.TELEMETRY_STORAGE_INTERVAL_MS,
    telemetryStorageBusyPercent: e.TELEMETRY_STORAGE_BUSY_PERCENT,
    trustProxy: e.TRUST_PROXY,
    mqttMaxConnectionsPerIp: e.MQTT_MAX_CONNECTIONS_PER_IP,
    mqttMaxPendingConnects: e.MQTT_MAX_PENDING_CONNECTS,
    mqttMaxPendingConnectsPerIp: e.MQTT_MAX_PENDING_CONNECTS_PER_IP,
    mqttMaxConnections: e.MQTT_MAX_CONNECTIONS ?? connectionBudget(fdLimit).mqttMaxConnections,
    httpMaxConnections: e.HTTP_MAX_CONNECTIONS ?? connectionBudget(fdLimit).httpMaxConnections,
    httpMaxConnectionsPerIp: e.HTTP_MAX_CONNECTIONS_PER_IP,
    qrLoginMaxStreams: e.QR_LOGIN_MAX_STREAMS,
    qrLoginMaxStreamsPerIp: e.QR_LOGIN_MAX_STREAMS_PER_IP,
    vapidKeys: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : undefined,
    vapidSubject: e.VAPID_SUBJECT,
    webPushOrigins: e.WEB_PUSH_ORIGINS ?? [...DEFAULT_WEB_PUSH_ORIGINS],
    webhookPrivateNetworks: e.WEBHOOK_PRIVATE_NETWORKS,
    ...auditConfigOf(e),
  };
}
