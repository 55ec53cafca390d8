/**
 * Telling every replica that a project's telemetry keys changed in a way ingest must see at once (docs/decisions/
 * telemetry.md "Undeclared keys": the setting turned on or off, an undeclared key declared or discarded). The replica
 * that made the change forgets the project's cached keys (directory.ts) and sends
 * `pg_notify('tessera_project_keys_changed', projectId)` after its commit; every replica LISTENs and forgets them too,
 * as device revocation does (device-revocation.ts). After the listener (re)starts every project's keys are forgotten,
 * since notifications may have been missed; the directory's TTL bounds what a lost one costs.
 */
import type { Logger } from 'pino';
import { sql } from 'drizzle-orm';
import { startDatabaseListener } from '../../core/database-listener.js';
import type { Database, Db } from '../../db/client.js';
import type { DeviceDirectory } from './directory.js';

/** The NOTIFY channel; the payload is the project's id. */
export const PROJECT_KEYS_CHANGED_CHANNEL = 'tessera_project_keys_changed';

/** Announces key changes; stops listening on close. */
export interface TProjectKeyChanges {
  /**
   * Forgets project `projectId`'s cached keys here at once and on every other replica. Call after the change committed.
   * @throws the database error when the notification could not be sent.
   */
  changed(projectId: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts listening (in the background) for changes of projects' keys, forgetting them in `directory`. */
export function startProjectKeyChanges(deps: { database: Database; db: Db; log: Logger; directory: DeviceDirectory }): TProjectKeyChanges {
  const listener = startDatabaseListener({
    database: deps.database,
    channel: PROJECT_KEYS_CHANGED_CHANNEL,
    log: deps.log,
    onNotify: (payload) => deps.directory.forgetProjectKeys(Number(payload)),
    onListening: () => deps.directory.forgetAllProjectKeys(),
  });
  return {
    async changed(projectId) {
      deps.directory.forgetProjectKeys(projectId);
      await deps.db.execute(sql`select pg_notify(${PROJECT_KEYS_CHANGED_CHANNEL}, ${String(projectId)})`);
    },
    close: () => listener.close(),
  };
}
