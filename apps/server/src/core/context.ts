/**
 * What every module receives: configuration, the database, token service, mail and the message bus.
 * Built once in server.ts; tests build it with test/helpers.ts.
 */
import type { TFlowGraph, TIngestRejectReason, TTelemetryValue } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { Database, Db } from '../db/client.js';
import type { TBlobStore } from './blob-store.js';
import type { TConfig } from './config.js';
import type { TokenService } from './tokens.js';

/** One mail to send (plain text; templates render before this). */
export interface TMail {
  to: string;
  subject: string;
  text: string;
  /** The alert the mail notifies of; the console shows the alert's delivery state from it. */
  alertId?: number | null;
}

/** Sends mail through the outbox (modules/mail). */
export interface TMailer {
  /**
   * Stores the mail in the outbox (and logs it); the outbox worker sends it when SMTP_URL is set. With `db` (an
   * open transaction) the row is written inside it, so it is sent only if that transaction commits.
   */
  enqueue(mail: TMail, db?: Db): Promise<void>;
}

/** Ingest's backlog and progress (modules/ingest pipeline; GET /healthz `ingest`, bench/overload). */
export interface TIngestBacklog {
  /** Points admitted and not yet committed (filling, waiting and being written); bounded by the admission gate. */
  queuedPoints: number;
  /** Publishes waiting for admission (the broker reads nothing more from their connections meanwhile). */
  waitingPublishes: number;
  /** Publishes taken and not yet acknowledged or refused. */
  openPublishes: number;
  /** How long publishes have been open without any batch committing, in ms (0 when none is open). */
  stalledForMs: number;
  /** True when `stalledForMs` reached INGEST_STALL_MS: ingest is stuck (a database that hangs or fails every write). */
  stalled: boolean;
}

/** Server-side publishing into the MQTT broker, embedded or external (modules/ingest). */
export interface TMessageBus {
  /** Publishes `payload` on `topic`. `retain` for device config. Resolves once the broker took it. */
  publish(topic: string, payload: string | Buffer, opts?: { qos?: 0 | 1; retain?: boolean }): Promise<void>;
  /** True when the broker is up (embedded) or the client is connected (external). */
  isUp(): boolean;
  /**
   * Subscribes the server to one exact `topic` (no wildcards) at QoS 1 and calls `onMessage` with each payload;
   * resolves once the subscription is in place, to the function that removes it. Used for command replies.
   */
  subscribe(topic: string, onMessage: (payload: Buffer) => void): Promise<() => Promise<void>>;
  /**
   * Whether device `tangramId` is connected and subscribed to its commands: known to the embedded broker; null with
   * an external broker, which does not tell.
   */
  isDeviceListening(tangramId: string): boolean | null;
  /** The ingest pipeline's backlog, and whether it is stalled. */
  ingestBacklog(): TIngestBacklog;
  /**
   * Closes device `tangramId`'s current MQTT connections on every replica (and, with the queue engine, RabbitMQ's) and
   * forgets its cached credentials, so a changed secret takes effect at once (modules/ingest/device-revocation.ts).
   * Call after the change committed.
   * @throws the database error when the other replicas could not be notified.
   */
  revokeDevice(tangramId: string): Promise<void>;
  /**
   * Makes ingest on every replica re-read project `projectId`'s telemetry keys at its next message (the undeclared-key
   * setting changed, or an undeclared key was declared or discarded: modules/ingest/project-key-changes.ts). Call after
   * the change committed.
   * @throws the database error when the other replicas could not be notified.
   */
  projectKeysChanged(projectId: number): Promise<void>;
  /**
   * Ingests one ThingsBoard telemetry message (its JSON bytes) of the device whose access token is `token` — the HTTP
   * device API (modules/ingest/token-telemetry.ts). Resolves once its batch, or its refusal counter, committed.
   * @throws IngestClosedError while the server shuts down.
   */
  ingestTokenTelemetry(token: string, payload: Buffer): Promise<TTokenTelemetryOutcome>;
  /** The device whose access token is `token`, or null (cached like MQTT logins: modules/ingest/directory.ts). */
  tokenDevice(token: string): Promise<TTokenDevice | null>;
  /**
   * Whether device `tangramId`, not listening on this replica, is connected by access token to another replica and
   * subscribed to RPC (asked through the database; false at once for a device without a token).
   */
  isDeviceListeningElsewhere(tangramId: string): Promise<boolean>;
  /**
   * Waits up to `timeoutMs` for a command to device `tangramId` as an RPC request (ThingsBoard's HTTP long poll,
   * modules/ingest/thingsboard-downlink.ts); null when none came or `signal` aborted.
   */
  pollRpc(tangramId: string, timeoutMs: number, signal?: AbortSignal): Promise<{ id: number; method: string; params: unknown } | null>;
  /**
   * Waits up to `timeoutMs` for a change of device `tangramId`'s shared attributes made on any replica (ThingsBoard's
   * HTTP attribute long poll): the attributes written and, when keys were deleted, `deleted`; null when none came or
   * `signal` aborted.
   */
  pollSharedAttributes(
    tangramId: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<(Record<string, unknown> & { deleted?: string[] }) | null>;
  /** Device `tangramId`'s answer to RPC request `id`, handed to the command waiting for it; false for an unknown id. */
  answerRpc(tangramId: string, id: string, payload: Buffer): Promise<boolean>;
  /**
   * Sends device `tangramId` (id `deviceId`), on whichever replica it is connected by token, its shared attributes
   * written at or after `sinceMs` and the keys `deleted`. Call after the change committed.
   */
  sharedAttributesChanged(tangramId: string, deviceId: number, sinceMs: number, deleted: string[]): Promise<void>;
  /**
   * Ingests one native telemetry message (a JSON array of `{key, ts, vs}` points) of device `tangramId`, relayed by a
   * LoRaWAN network server's webhook that already authenticated it (modules/ingest/device-telemetry.ts; counted as way
   * `lorawan`). Resolves once its batch, or its refusal counter, committed.
   * @throws IngestClosedError while the server shuts down.
   */
  ingestDeviceTelemetry(tangramId: string, payload: Buffer): Promise<TDeviceTelemetryOutcome>;
}

/** What became of a relayed device's telemetry message: no such device; refused (and counted); stored. */
export type TDeviceTelemetryOutcome =
  | { kind: 'unknown_device' }
  | { kind: 'refused'; reason: TIngestRejectReason; detail: string }
  | { kind: 'stored'; points: number };

/** A device found by its access token: what the HTTP device API needs of it. */
export interface TTokenDevice {
  id: number;
  tenantId: number;
  projectId: number;
  tangramId: string;
  secretHash: string;
}

/** What became of a token-named telemetry message: no device has the token; refused (and counted); stored. */
export type TTokenTelemetryOutcome =
  | { kind: 'unknown_token' }
  | { kind: 'refused'; reason: TIngestRejectReason; detail: string }
  | { kind: 'stored'; points: number };

/**
 * Tells this process's rule engine that rules changed so it stops using its cached copy (modules/project-rules/
 * engine/rule-changes.ts); other replicas notice within the engine's cache TTL.
 */
export interface TRuleChanges {
  /** Project `projectId`'s rules, programs, blockly setting, rule type or one of its devices' app rules changed. */
  projectChanged(projectId: number): void;
}

/** The outbox channels: each a worker sending the pending rows of its table (modules/outbox). */
export type TOutboxChannel = 'mail' | 'line' | 'web-push' | 'downloads' | 'webhooks';

/**
 * The outbox seam (app/outbox.ts starts one worker per channel): a module that queued rows — after the transaction
 * that wrote them committed — tells the channel's worker to run a pass now instead of at its next poll.
 */
export interface TOutbox {
  nudge(channel: TOutboxChannel): void;
}

/** The trigger of a run the API asks for: a recorded run's trigger values (replay), or none (manual run). */
export interface TFlowRunTrigger {
  tangram_id: string | null;
  key: string | null;
  ts: number | null;
  values: (number | null)[] | null;
  /** The value of a non-numeric key's point (absent or null: none). */
  value?: TTelemetryValue | null;
  status: number | null;
}

/**
 * The platform-rule engine as routes see it (modules/evaluation/flows/flow-engine.ts): told when a tenant's rules
 * change, asked how many runs of a rule wait (its `queuing` state), and asked to run a graph now.
 */
export interface TFlowRuntime {
  tenantChanged(tenantId: number): void;
  queued(ruleId: number): number;
  /**
   * Runs `graph` (already validated) now: the applied version (manual run) or a draft replaying a recorded trigger
   * with no side effects (`replay`). Answers the stored run's id.
   * @throws AppError 422 RULE_APPLY_FAILED when the graph does not compile.
   */
  runNow(
    rule: { id: number; tenantId: number; name: string; version: number },
    graph: TFlowGraph,
    trigger: TFlowRunTrigger,
    replay: boolean,
  ): Promise<{ runId: number }>;
}

/**
 * Platform-telemetry evaluation as routes see it (modules/platform-telemetry/evaluator.ts): told when mounted devices
 * change, so the next batch of a newly mounted device is evaluated at once.
 */
export interface TPlatformTelemetryRuntime {
  mountsChanged(): void;
}

/** The shared dependencies of routes and services. */
export interface TAppContext {
  config: TConfig;
  database: Database;
  db: Db;
  tokens: TokenService;
  log: Logger;
  mailer: TMailer;
  bus: TMessageBus;
  ruleChanges: TRuleChanges;
  outbox: TOutbox;
  flows: TFlowRuntime;
  platformTelemetry: TPlatformTelemetryRuntime;
  /** Files the server keeps (download packages, AI model revisions): config.blobStore's store. */
  blobs: TBlobStore;
  /** The device HTTP port's thread (app/device-http.ts) once it started; absent without DEVICE_HTTP_PORT. */
  deviceHttp?: { isUp(): boolean };
}
