/** `npm start`: reads the environment, starts the server, stops gracefully on SIGTERM/SIGINT. */
import { ConfigError, loadConfig } from './core/config.js';
import { PortInUseError, startServer } from './core/server.js';
import { DataDirLockedError } from './db/client.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServer(config);
  server.ctx.log.info(
    { http: server.httpPort, mqtt: server.mqttPort, db: server.ctx.database.kind },
    `Tessera is up: console http://localhost:${server.httpPort}/  API docs /docs  MQTT ${server.mqttPort ?? config.mqttUrl}`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.ctx.log.info({ signal }, 'stopping: draining ingest');
    await server.close();
    process.exit(0);
  };
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
