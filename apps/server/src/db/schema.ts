/**
 * The database schema (Drizzle, PostgreSQL 15 dialect; the same migrations run on PGlite and PostgreSQL), one file
 * per domain, all re-exported here: import tables from this file. Times are epoch milliseconds in `bigint` columns
 * (columns.ts). Every tenant-owned row carries `tenant_id`.
 */
export * from './schema-accounts.js';
export * from './schema-catalogue.js';
export * from './schema-telemetry.js';
export * from './schema-project-config.js';
export * from './schema-alerts.js';
export * from './schema-notify.js';
export * from './schema-line.js';
export * from './schema-web-push.js';
export * from './schema-platform-rules.js';
export * from './schema-downloads.js';
export * from './schema-dashboard.js';
export * from './schema-platform-telemetry.js';
export * from './schema-authz.js';
export * from './schema-machines.js';
export * from './schema-blobs.js';
export * from './schema-ai.js';
export * from './schema-assistant.js';
export * from './schema-audit.js';
export * from './schema-device-apis.js';
export * from './schema-device-certificates.js';
export * from './schema-device-attributes.js';
export * from './schema-webhooks.js';
export * from './schema-lorawan.js';
export * from './schema-telemetry-storage.js';
