/**
 * Revoking a device's MQTT sessions (docs/decisions/scale-out.md "Device logins"): after its secret changed (or it is
 * gone), every replica forgets its cached credentials and closes its connections, so the old secret stops working at
 * once. The replica that made the change sends `pg_notify('tessera_device_revoked', tangramId)` after its commit;
 * every replica (itself included) LISTENs and acts locally: forget the directory entry, close the embedded broker's
 * connections of that device whose login began before it acted. The replica that made the change acts at once, and
 * its own notification, when it comes back, closes only the logins begun before that: a device that logs in with its
 * new credentials the moment they are issued is not dropped by the echo (on PostgreSQL the notification may come
 * back a second later on a loaded machine). Another replica closes every login begun before the notification reached
 * it. With the queue engine the devices are RabbitMQ's connections: the replica that made the change closes them
 * through the management API (RABBITMQ_MANAGEMENT_URL) — which lists a connection only after its first statistics
 * event, so a connection opened a moment before is closed by a later pass, within seconds — and RabbitMQ asks the
 * auth backend, which reads the database without a cache, at the device's next login.
 *
 * Notifications sent while a replica's listening connection was lost never reach it. So after every LISTEN the
 * replica forgets its cached credentials and checks its sessions begun before against the database
 * (session-recheck.ts), closing those whose credentials changed meanwhile; a check the database fails is tried again.
 */
import type { Logger } from 'pino';
import { sql } from 'drizzle-orm';
import { startDatabaseListener, type TDatabaseListener } from '../../core/database-listener.js';
import type { Database, Db } from '../../db/client.js';

/** The NOTIFY channel; the payload is the Tangram ID. */
export const DEVICE_REVOKED_CHANNEL = 'tessera_device_revoked';
/** How long a management API call may take, in milliseconds. */
const MANAGEMENT_TIMEOUT_MS = 5_000;
/**
 * The management API lists a connection only after its first statistics event (collect_statistics_interval: 5 s by
 * default, 1 s as docs/deployment.md sets it; later on a busy node): later passes close a connection opened just
 * before the revocation, in milliseconds after the first.
 */
const MANAGEMENT_LATER_PASSES_MS = [500, 1_000, 1_500, 2_000, 3_000, 4_500, 6_000, 9_000, 13_000, 20_000];
/**
 * How long a revocation this replica sent waits for its own notification, in milliseconds: past it, a notification
 * of the same device is taken for another replica's (every login begun before it is closed).
 */
export const OWN_NOTIFICATION_WAIT_MS = 30_000;
/** How long a failed check of the sessions waits before it is tried again, in milliseconds, and how often it is. */
export const SESSION_RECHECK_RETRY_MS = 5_000;
const SESSION_RECHECK_ATTEMPTS = 12;

/** What revocation acts on. */
export interface TDeviceRevocationDeps {
  database: Database;
  db: Db;
  log: Logger;
  /**
   * This replica's own effect: forget cached credentials, close the local connections of `tangramId` whose login
   * began before `loginsBeforeMs` (`performance.now()` time).
   */
  revokeLocally(tangramId: string, loginsBeforeMs: number): void;
  /** The listener was (re)started: notifications may have been missed, so forget every cached credential. */
  forgetAll(): void;
  /**
   * The listener was (re)started: closes this replica's device sessions begun before `loginsBeforeMs`
   * (`performance.now()` time) whose credentials no longer hold (session-recheck.ts).
   * @throws the database error when they could not be checked (tried again after SESSION_RECHECK_RETRY_MS).
   */
  recheckSessions(loginsBeforeMs: number): Promise<void>;
  /** How long a failed check waits before it is tried again, in milliseconds (default SESSION_RECHECK_RETRY_MS). */
  sessionRecheckRetryMs?: number;
  /** How often the listening connection is probed, in milliseconds (default core/database-listener.ts LISTENER_PROBE_MS). */
  listenerProbeMs?: number;
  /** The queue engine's management API (with credentials in its userinfo), when devices connect to RabbitMQ. */
  managementUrl?: string;
}

/** Revokes devices' sessions on every replica. */
export interface TDeviceRevocation {
  /**
   * Closes `tangramId`'s MQTT connections everywhere and makes every replica re-read its credentials. Call after the
   * change committed. Resolves once this replica acted and the others were notified.
   * @throws the database error when the notification could not be sent (the change itself is committed).
   */
  revoke(tangramId: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts listening for revocations (in the background) and answers the revoker. */
export function startDeviceRevocation(deps: TDeviceRevocationDeps): TDeviceRevocation {
  const sent = new OwnRevocations();
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  /** Checks the sessions begun before `loginsBeforeMs`; a failure is logged and tried again, a newer check replaces it. */
  const retryMs = deps.sessionRecheckRetryMs ?? SESSION_RECHECK_RETRY_MS;
  const recheck = (loginsBeforeMs: number, attempt: number) => {
    clearTimeout(retry);
    deps.recheckSessions(loginsBeforeMs).catch((err: unknown) => {
      if (closed) return;
      const again = attempt < SESSION_RECHECK_ATTEMPTS;
      deps.log.warn({ err, attempt, retryInMs: again ? retryMs : null }, 'device revocation: sessions not checked again');
      if (again) retry = setTimeout(() => recheck(loginsBeforeMs, attempt + 1), retryMs);
    });
  };
  const listener: TDatabaseListener = startDatabaseListener({
    database: deps.database,
    channel: DEVICE_REVOKED_CHANNEL,
    log: deps.log,
    probeEveryMs: deps.listenerProbeMs,
    onNotify: (tangramId) => {
      const now = performance.now();
      deps.revokeLocally(tangramId, sent.takeEcho(tangramId, now) ?? now);
    },
    onListening: () => {
      // Notifications sent while nobody listened never come back: logins begun from here on read the credentials
      // again, and those begun before are checked.
      sent.clear();
      deps.forgetAll();
      recheck(performance.now(), 1);
    },
  });
  return {
    async revoke(tangramId) {
      const actedMs = performance.now();
      deps.revokeLocally(tangramId, actedMs);
      const managementUrl = deps.managementUrl;
      if (managementUrl) {
        const pass = () =>
          closeRabbitConnections(managementUrl, tangramId).catch((err: unknown) =>
            deps.log.warn({ err, tangramId }, 'device revocation: RabbitMQ connections not closed'),
          );
        await pass();
        for (const delayMs of MANAGEMENT_LATER_PASSES_MS) setTimeout(() => void pass(), delayMs).unref();
      }
      sent.add(tangramId, actedMs);
      await deps.db.execute(sql`select pg_notify(${DEVICE_REVOKED_CHANNEL}, ${tangramId})`).catch((err: unknown) => {
        sent.forget(tangramId, actedMs);
        throw err;
      });
    },
    close: () => {
      closed = true;
      clearTimeout(retry);
      return listener.close();
    },
  };
}

/**
 * The revocations this replica notified whose notification has not come back yet: when each acted
 * (`performance.now()`, ms), oldest first, per Tangram ID.
 */
export class OwnRevocations {
  private readonly pending = new Map<string, number[]>();

  /** Records that this replica acted on `tangramId` at `actedMs` and is notifying the others. */
  add(tangramId: string, actedMs: number): void {
    const times = this.pending.get(tangramId);
    if (times) times.push(actedMs);
    else this.pending.set(tangramId, [actedMs]);
  }

  /** Removes the record of `add(tangramId, actedMs)` (its notification was not sent). */
  forget(tangramId: string, actedMs: number): void {
    const times = this.pending.get(tangramId);
    const at = times?.indexOf(actedMs) ?? -1;
    if (!times || at < 0) return;
    times.splice(at, 1);
    if (times.length === 0) this.pending.delete(tangramId);
  }

  /**
   * A notification of `tangramId` came at `nowMs`: when it is the echo of this replica's oldest revocation still
   * waiting (sent less than OWN_NOTIFICATION_WAIT_MS ago), answers that revocation's time and forgets it; otherwise
   * undefined (another replica's).
   */
  takeEcho(tangramId: string, nowMs: number): number | undefined {
    const times = this.pending.get(tangramId);
    if (!times) return undefined;
    while (times.length > 0 && nowMs - (times[0] as number) > OWN_NOTIFICATION_WAIT_MS) times.shift();
    const actedMs = times.shift();
    if (times.length === 0) this.pending.delete(tangramId);
    return actedMs;
  }

  /** Forgets every record (the listener restarted: what was notified meanwhile does not come back). */
  clear(): void {
    this.pending.clear();
  }
}

/** The management API's base and its Basic authorization (fetch refuses credentials inside a URL). */
function managementEndpoint(managementUrl: string): { base: string; authorization: string } {
  const url = new URL(managementUrl);
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  return { base: url.toString().replace(/\/+$/, ''), authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

/**
 * Closes every RabbitMQ connection of user `username` through the management HTTP API (`GET /api/connections`, then
 * `DELETE /api/connections/{name}` each). Answers how many it closed.
 * @throws Error when the API answers an unexpected status.
 */
export async function closeRabbitConnections(managementUrl: string, username: string): Promise<number> {
  const { base, authorization } = managementEndpoint(managementUrl);
  const headers = { authorization };
  const listed = await fetch(`${base}/api/connections?columns=name,user`, { headers, signal: AbortSignal.timeout(MANAGEMENT_TIMEOUT_MS) });
  if (!listed.ok) throw new Error(`RabbitMQ management: GET /api/connections answered ${listed.status}`);
  const connections = (await listed.json()) as { name: string; user: string }[];
  let closed = 0;
  for (const c of connections.filter((x) => x.user === username)) {
    const res = await fetch(`${base}/api/connections/${encodeURIComponent(c.name)}`, {
      method: 'DELETE',
      headers: { ...headers, 'x-reason': 'device credentials revoked' },
      signal: AbortSignal.timeout(MANAGEMENT_TIMEOUT_MS),
    });
    if (res.ok || res.status === 404) closed += 1;
    else throw new Error(`RabbitMQ management: DELETE connection answered ${res.status}`);
  }
  return closed;
}
