/**
 * Starts one Tessera server process: database (+ migrations), mail, MQTT (embedded Aedes or external broker),
 * HTTP (API, console, /mqtt WebSocket), and the demo on an empty embedded database.
 */
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { openDatabase, type Database } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import { startDemo } from '../modules/demo/seed.js';
import { ensureCatalogue } from '../modules/products/ensure-catalogue.js';
import { createMessaging } from '../modules/ingest/messaging.js';
import { createMailService } from '../modules/mail/mailer.js';
import { publishAlertChange } from '../modules/alerts/publish.js';
import { createRuleNotifier } from '../modules/notifications/dispatch.js';
import type { TRuleNotifier } from '../modules/notifications/types.js';
import { RuleEngine } from '../modules/project-rules/engine/engine.js';
import { RuleChangeHub } from '../modules/project-rules/engine/rule-changes.js';
import { buildApp, type TApp } from './app.js';
import type { TConfig } from './config.js';
import type { TAppContext } from './context.js';
import { TokenService } from './tokens.js';

/** The default location of the built console. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** A running server. Ports are the bound ones (useful when the config asked for 0). */
export interface TRunningServer {
  app: TApp;
  ctx: TAppContext;
  httpPort: number;
  mqttPort: number | null;
  /** The rule engine (counters, and `idle()` for tests). */
  rules: RuleEngine;
  /** Graceful stop: stops accepting, drains ingest, closes the broker, mail worker and database. */
  close(): Promise<void>;
}

/** Thrown when a port is taken; the message names the variable to change. */
export class PortInUseError extends Error {}

/**
 * Starts the server.
 * @param opts.database an already-open database (tests); otherwise opened from the config.
 * @param opts.log a logger (tests pass a silent one).
 * @param opts.ruleClock the rule engine's clock (tests of re-notify intervals and flapping; default Date.now).
 * @param opts.ruleNotifier wraps the rule engine's notifier (tests record what it is handed).
 * @throws PortInUseError when PORT or MQTT_PORT is taken; DataDirLockedError when DATA_DIR is owned.
 */
export async function startServer(
  config: TConfig,
  opts: { database?: Database; log?: Logger; ruleClock?: () => number; ruleNotifier?: (notifier: TRuleNotifier) => TRuleNotifier } = {},
): Promise<TRunningServer> {
  const log = opts.log ?? pino({ level: config.logLevel });
  const database =
    opts.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      onIdleError: (err) => log.warn({ err: err.message }, 'db: an idle connection was closed by the server; it will be reopened'),
    }));
  const closers: (() => Promise<void>)[] = [];
  try {
    await runMigrations(database);
    await ensureCatalogue(database.db);
    const db = database.db;
    const tokens = await TokenService.create(db, config.jwtSecret);
    const mail = createMailService({ db, log, config });
    const ruleChanges = new RuleChangeHub();
    const messaging = await createMessaging({ config, database, db, tokens, log, mailer: mail.mailer, ruleChanges });
    const ctx: TAppContext = { config, database, db, tokens, log, mailer: mail.mailer, bus: messaging.bus, ruleChanges };
    const rules = new RuleEngine(ctx, ruleChanges, {
      notifier: (opts.ruleNotifier ?? ((n) => n))(createRuleNotifier(ctx)),
      publishAlert: (alertId) => publishAlertChange(ctx, alertId),
      now: opts.ruleClock,
    });
    // Evaluation runs after each batch commits and is acknowledged; messaging.close() lets it finish first.
    messaging.setCommitListener(rules);
    const app = await buildApp({ ...ctx, config: { ...config, webDist: config.webDist ?? DEFAULT_WEB_DIST } });

    await listenOr(() => app.listen({ port: config.port, host: config.host }), 'PORT', config.port);
    closers.push(() => app.close());
    await listenOr(() => messaging.listen(app.server), 'MQTT_PORT', config.mqttPort);
    closers.unshift(() => messaging.close());
    mail.start();
    closers.push(() => mail.stop());

    const httpPort = (app.server.address() as AddressInfo).port;
    const mqttPort = messaging.mqttPort();
    if (config.demo) {
      const brokerUrl = config.mqttUrl ?? `mqtt://127.0.0.1:${mqttPort}`;
      const stopDemo = await startDemo(ctx, brokerUrl);
      closers.unshift(stopDemo);
    }
    if (!opts.database) closers.push(() => database.close());
    let closed = false;
    return {
      app,
      ctx,
      httpPort,
      mqttPort,
      rules,
      close: async () => {
        if (closed) return;
        closed = true;
        for (const c of closers) await c().catch((err) => log.error({ err }, 'error while closing'));
      },
    };
  } catch (err) {
    for (const c of closers) await c().catch(() => undefined);
    if (!opts.database) await database.close().catch(() => undefined);
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
