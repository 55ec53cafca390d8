/** @tessera/server: what other workspaces (e2e, bench) use to run the server in-process. */
export { loadConfig, type TConfig } from './core/config.js';
export { startServer, type TRunningServer } from './app/server.js';
export { openDatabase, openPglite, openPostgres, type Database, type Db } from './db/client.js';
export { writeIngestBatch, type TIngestBatch } from './modules/telemetry/write.js';
