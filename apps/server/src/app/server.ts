/**
 * Starts one Tessera server process: database (+ migrations), mail, MQTT (embedded Aedes or external broker),
 * HTTP (API, console, /mqtt WebSocket), and the demo on an empty embedded database.
 */
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { serializeLoggedError } from '../core/log-errors.js';
import { openDatabase, type Database } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import { modelStateListener } from '../modules/model-deployments/state-reports.js';
import { loadDemo, startDemo } from '../modules/demo/seed.js';
import { ensureCatalogue } from '../modules/products/ensure-catalogue.js';
import { createMessaging, type TMessaging } from '../modules/ingest/messaging.js';
import { createMailer } from '../modules/mail/mailer.js';
import { directoryBlobStore } from '../core/blob-store.js';
import { databaseBlobStore } from '../core/database-blob-store.js';
import { createOutboxStage } from './outbox.js';
import { batchedAlertPublish } from '../modules/alerts/publish.js';
import { createRuleNotifier } from '../modules/notifications/dispatch.js';
import type { TRuleNotifier } from '../modules/notifications/types.js';
import { RuleEngine } from '../modules/evaluation/engine.js';
import { RuleCommands } from '../modules/evaluation/commands.js';
import { FLOW_CLOSE_WAIT_MS, FlowEngine } from '../modules/evaluation/flows/flow-engine.js';
import { AlertPublisher } from '../modules/alerts/live-publisher.js';
import { RuleChangeHub } from '../modules/evaluation/rule-changes.js';
import type { TApp } from '../core/app-type.js';
import { buildApp } from './app.js';
import { createMetricsStage } from './metrics.js';
import { startMetricsListener, type TMetricsListener } from '../modules/metrics/routes.js';
import { lorawanUplinkHandler } from '../modules/lorawan/webhook-routes.js';
import { startDeviceHttpThread, type TDeviceHttpThread } from './device-http.js';
import { openFileLimit } from '../core/connection-limits.js';
import { guardHttpConnections, type THttpRefusal } from '../core/http-connection-guard.js';
import proxyAddr from '@fastify/proxy-addr';
import type { TConfig } from '../core/config.js';
import type { TAppContext, TFlowRuntime } from '../core/context.js';
import { AppError } from '../core/errors.js';
import { ErrorCode } from '@tessera/contracts';
import { settlesWithin } from '../core/deadline.js';
import { runShutdown, type TShutdownOutcome, type TShutdownStep } from '../core/shutdown.js';
import { TokenService } from '../core/tokens.js';
import { PlatformTelemetryEvaluator } from '../modules/platform-telemetry/evaluator.js';
import { startTelemetryStorage } from '../modules/telemetry-store/storage-loop.js';
import { prepareHotPartitions } from '../modules/telemetry-store/storage-job.js';

/** The default location of the built console. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** A running server. Ports are the bound ones (useful when the config asked for 0). */
export interface TRunningServer {
  app: TApp;
  ctx: TAppContext;
  httpPort: number;
  mqttPort: number | null;
  /** The bound MQTT-over-TLS port (MQTT_TLS_CERT set), or null. `mqttPort` is null when MQTT_PLAIN=0. */
  mqttTlsPort: number | null;
  /** The bound port of the metrics listener on 127.0.0.1 (METRICS_PORT), or null when `/metrics` is on `httpPort`. */
  metricsPort: number | null;
  /**
   * The device HTTP thread (DEVICE_HTTP_PORT, app/device-http.ts): its bound port, load and state, and (tests) a way to
   * end it as a crash would; null when not set.
   */
  deviceHttp: Pick<
    TDeviceHttpThread,
    'port' | 'eventLoopUtilization' | 'isUp' | 'restarts' | 'terminateThread' | 'startCpuProfile' | 'metricsText'
  > | null;
  /** The rule engine (counters, and `idle()` for tests). */
  rules: RuleEngine;
  /** The platform-rule engine (tests wait on `flows.idle()`). */
  flows: FlowEngine;
  /** The MQTT side: ingest and broker counters, the ingest backlog. */
  messaging: TMessaging;
  /** HTTP connections closed at accept since start, by reason (core/http-connection-guard.ts). */
  httpRefusals: Readonly<Record<THttpRefusal, number>>;
  /**
   * Graceful stop within `config.shutdownTimeoutMs` (core/shutdown.ts): refuses new connections (MQTT, WebSocket,
   * HTTP) first, stops the demo, drains ingest, closes the broker, the mail worker, HTTP, the telemetry storage job
   * and the database. Steps still running at the deadline are cut short (unacknowledged publishes are sent again by
   * their devices).
   * Idempotent: a second call answers the first one's outcome.
   */
  close(): Promise<TShutdownOutcome>;
}

/** Thrown when a port is taken; the message names the variable to change. */
export class PortInUseError extends Error {}

/**
 * What a caller may hand the server instead of what it would make itself: an open database, a logger, and for tests
 * of the evaluation stage a clock (epoch ms) and a wrapper around the rule notifier.
 */
export interface TStartOptions {
  database?: Database;
  log?: Logger;
  ruleClock?: () => number;
  ruleNotifier?: (notifier: TRuleNotifier) => TRuleNotifier;
}

/**
 * Starts the server.
 * @param opts.database an already-open database (tests); otherwise opened from the config.
 * @param opts.log a logger (tests pass a silent one).
 * @param opts.ruleClock the rule engine's clock (tests of re-notify intervals and flapping; default Date.now).
 * @param opts.ruleNotifier wraps the rule engine's notifier (tests record what it is handed).
 * @throws PortInUseError when PORT, MQTT_PORT or DEVICE_HTTP_PORT is taken; DataDirLockedError when DATA_DIR is owned.
 */
export async function startServer(config: TConfig, opts: TStartOptions = {}): Promise<TRunningServer> {
  const log = opts.log ?? pino({ level: config.logLevel, serializers: { err: serializeLoggedError } });
  const database =
    opts.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      postgres: {
        timeouts: { connectMs: config.dbConnectTimeoutMs, statementMs: config.dbStatementTimeoutMs },
        onConnectionError: (err) =>
          log.warn({ err: err.message }, 'db: a connection was lost; queries on it failed, the next ones open a new one'),
      },
    }));
  // The stop's steps in the order they run; each is filled in once its part has started.
  let messaging: TMessaging | undefined;
  let app: TApp | undefined;
  let appClosing: Promise<void> | undefined;
  let stopDemo: (() => Promise<void>) | undefined;
  let stopOutbox: (() => Promise<void>) | undefined;
  let stopTelemetryStorage: (() => Promise<void>) | undefined;
  let metricsListener: TMetricsListener | undefined;
  let deviceHttp: TDeviceHttpThread | undefined;
  let stopDeadlineAt = Number.POSITIVE_INFINITY;
  const steps: TShutdownStep[] = [
    {
      name: 'stop accepting',
      run: async (deadlineAt) => {
        stopDeadlineAt = deadlineAt;
        // Fastify answers 503 to requests on open connections from here on, and Node refuses new ones.
        appClosing = app?.close();
        deviceHttp?.stopAccepting();
        await messaging?.stopAccepting();
      },
    },
    { name: 'demo', run: async () => stopDemo?.() },
    { name: 'ingest drain', run: async () => messaging?.drain() },
    { name: 'broker', run: async () => messaging?.close() },
    { name: 'outbox', run: async () => stopOutbox?.() },
    {
      name: 'http',
      run: async (deadlineAt) => {
        if (appClosing && !(await settlesWithin(appClosing, deadlineAt - Date.now()))) app?.server.closeAllConnections();
        await Promise.all([appClosing, metricsListener?.close(), deviceHttp?.close(Math.max(0, deadlineAt - Date.now()))]);
      },
    },
    { name: 'telemetry storage', run: async () => stopTelemetryStorage?.() },
    { name: 'database', run: async (deadlineAt) => (opts.database ? undefined : database.close(Math.max(0, deadlineAt - Date.now()))) },
  ];
  let stopping: Promise<TShutdownOutcome> | undefined;
  const close = () => {
    stopping ??= runShutdown(steps, config.shutdownTimeoutMs, log);
    return stopping;
  };
  try {
    await runMigrations(database);
    await ensureCatalogue(database.db);
    const db = database.db;
    const tokens = await TokenService.create(db, config.jwtSecret);
    const blobs = config.blobStore === 'database' ? databaseBlobStore(db) : directoryBlobStore(config.blobDir);
    const outbox = createOutboxStage({ db, log, config, blobs, pool: database.pool });
    const mailer = createMailer({ db, log, config, outbox });
    const ruleChanges = new RuleChangeHub();
    let flowEngine: FlowEngine | undefined;
    const flows: TFlowRuntime = {
      tenantChanged: (tenantId) => flowEngine?.tenantChanged(tenantId),
      queued: (ruleId) => flowEngine?.queued(ruleId) ?? 0,
      runNow: (rule, graph, trigger, replay) => {
        if (!flowEngine) throw new AppError(503, ErrorCode.DatabaseUnavailable, 'the rule engine is starting; try again shortly');
        return flowEngine.runGraph(rule, graph, trigger, replay);
      },
    };
    const platformTelemetry = new PlatformTelemetryEvaluator({ db, log });
    messaging = await createMessaging({ config, database, db, tokens, log, mailer, ruleChanges, outbox, flows, platformTelemetry, blobs });
    platformTelemetry.attachBus(messaging.bus);
    const ctx: TAppContext = {
      config,
      database,
      db,
      tokens,
      log,
      mailer,
      bus: messaging.bus,
      ruleChanges,
      outbox,
      flows,
      platformTelemetry,
      blobs,
    };
    const notifier = (opts.ruleNotifier ?? ((n) => n))(createRuleNotifier(ctx));
    // Live alert publishes of both engines join in batches (two queries per batch, not two per alert).
    const publishAlert = batchedAlertPublish(ctx);
    const rules = new RuleEngine(ctx, ruleChanges, { notifier, publishAlert, now: opts.ruleClock });
    const flowAlerts = new AlertPublisher(publishAlert);
    flowEngine = new FlowEngine({
      db,
      log,
      notifier,
      commands: new RuleCommands({ db, bus: messaging.bus, log, timeoutMs: config.commandTimeoutMs }),
      publishAlert: (alertId) => flowAlerts.changed(alertId),
      now: opts.ruleClock,
    });
    const platformRules = flowEngine;
    // Evaluation runs after each batch commits and is acknowledged; messaging.drain() lets it finish first.
    messaging.setCommitListener({
      accept: (batch) => {
        rules.accept(batch);
        platformRules.accept(batch);
        platformTelemetry.accept(batch);
      },
      close: async () => {
        // Platform-rule runs are derived work: they get at most half of what is left of the stop, so that the
        // broker, HTTP and the database still close by the deadline.
        const flowsBudgetMs = Math.min(FLOW_CLOSE_WAIT_MS, Math.max(0, (stopDeadlineAt - Date.now()) / 2));
        await Promise.all([rules.close(), platformRules.close(flowsBudgetMs), platformTelemetry.close()]);
        await flowAlerts.idle();
      },
    });
    messaging.setModelStateListener(modelStateListener(db, log));
    const appCtx: TAppContext = { ...ctx, config: { ...config, webDist: config.webDist ?? DEFAULT_WEB_DIST } };
    // Without a token no one may read the metrics, so none are kept: the hot paths pay nothing (docs/deployment.md).
    const metrics = config.metricsToken
      ? createMetricsStage({ messaging, rules, flows: platformRules, database, deviceHttp: () => deviceHttp })
      : undefined;
    const built = await buildApp(appCtx, { metrics, metricsRoute: config.metricsPort === undefined });
    app = built;

    log.info(
      { openFileLimit: openFileLimit(), httpMaxConnections: config.httpMaxConnections, mqttMaxConnections: config.mqttMaxConnections },
      'connection budget',
    );
    const isTrustedProxy = config.trustProxy ? proxyAddr.compile(config.trustProxy) : () => false;
    const httpRefusals = guardHttpConnections(
      built.server,
      {
        maxConnections: config.httpMaxConnections,
        perAddress: config.httpMaxConnectionsPerIp,
        isTrustedProxy: (address) => isTrustedProxy(address, 0),
      },
      log,
    );
    // The demo's simulated devices connect over plain MQTT; with MQTT_PLAIN=0 there is none (docs/deployment.md). Its
    // accounts exist before the server listens: a login right after /healthz answers ok finds them.
    const demo = config.demo && (config.mqttUrl || config.mqttPlain) ? await loadDemo(ctx) : null;
    // The device HTTP port listens before the main one: once /healthz answers, every port does.
    const uplinks = lorawanUplinkHandler(appCtx);
    if (config.deviceHttpPort !== undefined && uplinks) {
      const port = config.deviceHttpPort;
      await listenOr(
        async () => {
          deviceHttp = await startDeviceHttpThread(config, port, { uplink: uplinks }, log);
          appCtx.deviceHttp = deviceHttp;
        },
        'DEVICE_HTTP_PORT',
        port,
      );
    }
    await listenOr(() => built.listen({ port: config.port, host: config.host }), 'PORT', config.port);
    const storageSettings = { hotWindowMs: config.telemetryHotWindowMs, busyPercent: config.telemetryStorageBusyPercent };
    if (config.telemetryStorageIntervalMs > 0) {
      // Today's partition exists before the first point arrives (docs/decisions/telemetry-storage.md "Partitions").
      await prepareHotPartitions(database, storageSettings).catch((err: unknown) =>
        log.warn({ err }, 'telemetry storage: hot partitions not prepared; the job tries again'),
      );
    }
    const bound = messaging;
    await listenOr(() => bound.listen(built.server), 'MQTT_PORT', config.mqttPort);
    if (config.metricsPort !== undefined && metrics) {
      const port = config.metricsPort;
      await listenOr(
        async () => {
          metricsListener = await startMetricsListener(port, metrics, config.metricsToken);
        },
        'METRICS_PORT',
        port,
      );
    }
    await outbox.start();
    stopOutbox = () => outbox.stop();
    const storage = startTelemetryStorage(database, storageSettings, config.telemetryStorageIntervalMs, log);
    stopTelemetryStorage = () => storage.stop();

    const httpPort = (built.server.address() as AddressInfo).port;
    const mqttPort = messaging.mqttPort();
    if (demo && (config.mqttUrl || mqttPort !== null)) {
      const brokerUrl = config.mqttUrl ?? `mqtt://127.0.0.1:${mqttPort}`;
      // The week of history lands in days gone cold: compress them once written, not an interval later.
      stopDemo = await startDemo(ctx, demo, brokerUrl, { onHistoryWritten: () => storage.runSoon() });
    }
    const metricsPort = metricsListener?.port ?? null;
    const mqttTlsPort = messaging.mqttTlsPort();
    return {
      app: built,
      ctx,
      httpPort,
      mqttPort,
      mqttTlsPort,
      metricsPort,
      deviceHttp: deviceHttp ?? null,
      rules,
      flows: platformRules,
      messaging,
      httpRefusals,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

async function listenOr(listen: () => Promise<unknown>, variable: string, port: number): Promise<void> {
  try {
    await listen();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new PortInUseError(`port ${port} is already in use: set ${variable} to a free port (e.g. ${variable}=${port + 1})`);
    }
    throw err;
  }
}
