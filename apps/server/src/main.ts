/**
 * The server process (`npm start`, `npm run start:server`): reads the environment, starts the server, and on
 * SIGTERM/SIGINT stops gracefully within SHUTDOWN_TIMEOUT_MS (docs/deployment.md "Stopping"): exit code 0 when every
 * step finished in time, 1 when the deadline cut one short. Further signals change nothing: Ctrl-C in a terminal, or a
 * process manager that signals the whole process group, delivers the same signal twice (once directly, once
 * forwarded by npm), and the deadline already bounds the stop.
 */
import { ConfigError, loadConfig } from './core/config.js';
import { PortInUseError, startServer } from './app/server.js';
import { DataDirLockedError } from './db/client.js';

/** How long past the shutdown deadline the process may still run before it is ended regardless, in milliseconds. */
const EXIT_BACKSTOP_MS = 2_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServer(config);
  const log = server.ctx.log;
  log.info(
    { http: server.httpPort, mqtt: server.mqttPort, db: server.ctx.database.kind },
    `Tessera is up: console http://localhost:${server.httpPort}/  API docs /docs  MQTT ${server.mqttPort ?? config.mqttUrl}`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, deadlineMs: config.shutdownTimeoutMs }, 'stopping: refusing new connections, draining ingest');
    // Should a step ignore its deadline, the process still ends.
    setTimeout(() => {
      log.error('shutdown overran its deadline: exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + EXIT_BACKSTOP_MS).unref();
    const outcome = await server.close();
    log.info(outcome, 'stopped');
    process.exit(outcome.withinDeadline ? 0 : 1);
  };
  // Every known source of a rejection is handled where it arises (the fault tests run without this net). Should one
  // slip through, a crash would stop ingest for every device — and crash-loop while the database is down.
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled promise rejection (a defect); the server goes on'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof PortInUseError || err instanceof DataDirLockedError) {
    console.error(`tessera: ${err.message}`);
  } else {
    console.error('tessera: failed to start:', err);
  }
  process.exit(1);
});
