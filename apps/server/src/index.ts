/**
 * @tessera/server: what other workspaces (e2e, bench) use to run the server in-process and look into its database.
 * Test harness and fixtures are `@tessera/server/testing` (test/index.ts).
 */
export { DEFAULT_WEB_DIST, PortInUseError, startServer, type TRunningServer } from './app/server.js';
export { ConfigError, loadConfig, type TConfig } from './core/config.js';
export { openDatabase, openPglite, openPostgres, rowsOf, type Database, type Db } from './db/client.js';
export { runMigrations } from './db/migrate.js';
export * from './db/schema.js';
export { DEMO_DEVICES, DEMO_PASSWORD, DEMO_USER_EMAIL, DEMO_VENDOR_EMAIL } from './modules/demo/demo-data.js';
export { publishAlertChange } from './modules/alerts/publish.js';
export { renderAlertPush } from './modules/notifications/templates.js';
export { putNotificationEmails } from './modules/project-settings/notification-emails.js';
export { compileRuleProgram } from './modules/evaluation/compile-program.js';
export { emptyDeviceValues, fillFrame } from './modules/evaluation/device-values.js';
export { createFrame } from './modules/evaluation/frame.js';
export { writeIngestBatch, type TIngestBatch, type TTelemetryRowIn } from './modules/telemetry/write.js';
export { runTelemetryStorage } from './modules/telemetry-store/storage-job.js';
export { QR_LOGIN_CHANNEL } from './modules/auth/qr-login.js';
