/**
 * What the uplink webhook looks up on every request, cached (docs/decisions/lorawan.md "Cost per uplink"): the
 * integration by id (with its secret's digest) and the device by (tenant, DevEUI), each reused for
 * {@link LORAWAN_CACHE_TTL_MS} (±20 %, then read again while still answered), a miss for {@link LORAWAN_MISS_TTL_MS},
 * at most {@link LORAWAN_CACHE_MAX_ENTRIES} of each (the least recently loaded go first). A change — a rotated secret,
 * an edited or deleted integration, a DevEUI set or cleared — is forgotten at once on the replica that made it and,
 * through `pg_notify('tessera_lorawan_changed', …)` after its commit, on every other replica (as device revocation
 * does, modules/ingest/device-revocation.ts); after the listener (re)starts everything is forgotten, since
 * notifications may have been missed. The TTL only bounds what a lost notification can cost, so it is long: a
 * LoRaWAN device sends every few minutes, and a shorter TTL would make most uplinks of a fleet read the database.
 */
import { eq, sql } from 'drizzle-orm';
import { startDatabaseListener, type TDatabaseListener } from '../../core/database-listener.js';
import type { TAppContext } from '../../core/context.js';
import { type Db, rowsOf } from '../../db/client.js';
import { deviceLorawan, devices, lorawanIntegrations } from '../../db/schema.js';
import { UplinkLogWriter } from './uplink-log.js';

/** The NOTIFY channel; the payload is `integration:<id>` or `devices` (a DevEUI was set or cleared). */
export const LORAWAN_CHANGED_CHANNEL = 'tessera_lorawan_changed';
/** How long a found integration or device is reused, in milliseconds (changes are notified; this bounds a lost notification). */
export const LORAWAN_CACHE_TTL_MS = 600_000;
/** How many integrations, and how many DevEUIs, one server keeps at most (~200 bytes each). */
export const LORAWAN_CACHE_MAX_ENTRIES = 100_000;
/** How long "no such integration / DevEUI" is remembered, in milliseconds. */
export const LORAWAN_MISS_TTL_MS = 1_000;

/** An integration row as the webhook reads it. */
export type TIntegrationRow = typeof lorawanIntegrations.$inferSelect;
/** The device a DevEUI names: its Tangram ID and project. */
export interface TDevEuiDevice {
  tangramId: string;
  projectId: number;
}

/** A cached look-up: its answer (a promise, shared by concurrent callers) and when it goes stale (epoch ms). */
export interface TEntry<T> {
  value: Promise<T>;
  expiresAt: number;
  /** True once the value is known to be found (not null). */
  found?: boolean;
  /** True while a found value past its TTL is being read again (it is still answered meanwhile). */
  refreshing?: boolean;
}

/** `ms` spread by ±20 %, so entries loaded together (a burst of uplinks after a start) do not expire together. */
const jittered = (ms: number) => ms * (0.8 + Math.random() * 0.4);

/** Starts `load`, as an entry not yet in any map: a miss is kept {@link LORAWAN_MISS_TTL_MS}, a found value longer. */
function loading<T>(load: () => Promise<T | null>, onFailure: (entry: TEntry<T | null>) => void): TEntry<T | null> {
  const entry: TEntry<T | null> = { value: load(), expiresAt: Date.now() + jittered(LORAWAN_CACHE_TTL_MS) };
  entry.value.then(
    (v) => {
      if (v === null) entry.expiresAt = Date.now() + LORAWAN_MISS_TTL_MS;
      else entry.found = true;
    },
    () => onFailure(entry),
  );
  return entry;
}

/**
 * Sets `key` in `map` as its newest entry (Map order is insertion order), first dropping the oldest while `map` holds
 * `maxEntries` or more others.
 */
function setNewest<K, V>(map: Map<K, V>, key: K, value: V, maxEntries: number): void {
  map.delete(key);
  while (map.size >= maxEntries) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
  map.set(key, value);
}

/**
 * `key`'s value from `map`, loaded by `load` when absent. A found value past its TTL is still answered while it is
 * read again in the background (once): a change is forgotten at once by its notification and the TTL only bounds a
 * lost one, so answering the old value a few milliseconds longer costs nothing — and thousands of DevEUIs loaded in
 * the same second no longer expire in the same second with each uplink waiting on its own query (a 1–2 s p99 at
 * 4,000 uplinks/s, docs/connectivity.md). A miss past its TTL is read again before answering (a DevEUI just set must
 * be found). An entry loaded or read again becomes the newest; past `maxEntries` the oldest is dropped.
 */
export function cached<K, T>(
  map: Map<K, TEntry<T | null>>,
  key: K,
  load: () => Promise<T | null>,
  maxEntries = LORAWAN_CACHE_MAX_ENTRIES,
): Promise<T | null> {
  const hit = map.get(key);
  if (hit && (hit.expiresAt > Date.now() || hit.refreshing)) return hit.value;
  if (hit?.found) {
    hit.refreshing = true;
    const next = loading(load, () => {
      hit.refreshing = false;
    });
    // Replaced unless a change notification forgot the entry meanwhile.
    next.value.then(
      () => {
        if (map.get(key) === hit) setNewest(map, key, next, maxEntries);
      },
      () => undefined,
    );
    return hit.value;
  }
  const entry = loading(load, (failed) => {
    if (map.get(key) === failed) map.delete(key);
  });
  setNewest(map, key, entry, maxEntries);
  return entry.value;
}

/** The webhook's look-ups with a TTL cache and forgetting on change. */
export class LorawanDirectory {
  private readonly integrations = new Map<number, TEntry<TIntegrationRow | null>>();
  /** `{tenantId}:{devEui}` → device. */
  private readonly devEuis = new Map<string, TEntry<TDevEuiDevice | null>>();

  constructor(private readonly db: Db) {}

  /** Integration `id`, or null. */
  integration(id: number): Promise<TIntegrationRow | null> {
    return cached(this.integrations, id, async () => {
      const [row] = await this.db.select().from(lorawanIntegrations).where(eq(lorawanIntegrations.id, id));
      return row ?? null;
    });
  }

  /** The device of `tenantId` whose DevEUI is `devEui` (16 upper-case hex digits), or null. */
  device(tenantId: number, devEui: string): Promise<TDevEuiDevice | null> {
    return cached(this.devEuis, `${tenantId}:${devEui}`, async () => {
      // One statement of fixed text (not the query builder: it is read once per device and TTL).
      const rows = await this.db.execute(sql`
        select d.tangram_id, d.project_id from ${deviceLorawan} as l join ${devices} as d on d.id = l.device_id
        where l.tenant_id = ${tenantId} and l.dev_eui = ${devEui}`);
      const row = rowsOf<{ tangram_id: string; project_id: number }>(rows)[0];
      return row ? { tangramId: row.tangram_id, projectId: Number(row.project_id) } : null;
    });
  }

  /** Acts on a change notification's payload. */
  forget(change: string): void {
    const [kind, id] = change.split(':');
    if (kind === 'integration') this.integrations.delete(Number(id));
    // DevEUI changes are rare: every tenant's entries go (an admin may change another tenant's device).
    else if (kind === 'devices') this.devEuis.clear();
    else this.forgetAll();
  }

  forgetAll(): void {
    this.integrations.clear();
    this.devEuis.clear();
  }
}

/** The LoRaWAN module's shared parts on one server: the directory, the uplink log writer, the change channel. */
export interface TLorawanRuntime {
  directory: LorawanDirectory;
  uplinkLog: UplinkLogWriter;
  /**
   * Forgets `change` here at once and tells every replica (call after the change committed).
   * @throws the database error when the notification could not be sent.
   */
  changed(change: `integration:${number}` | 'devices'): Promise<void>;
  /**
   * Calls `listener` with every change, made here or notified by another replica (`all` when the listener restarted
   * and changes may have been missed).
   */
  onChange(listener: (change: string) => void): void;
}

const runtimes = new WeakMap<TAppContext, TLorawanRuntime & { close(): Promise<void> }>();

/**
 * The runtime of `ctx`'s server, started on first use (the listener in the background); `onClose` is given its
 * stop (flush the log, stop listening) the first time.
 */
export function lorawanRuntime(ctx: TAppContext, onClose: (stop: () => Promise<void>) => void): TLorawanRuntime {
  const known = runtimes.get(ctx);
  if (known) return known;
  const directory = new LorawanDirectory(ctx.db);
  const uplinkLog = new UplinkLogWriter(ctx.db, ctx.log);
  const listeners: ((change: string) => void)[] = [];
  const tell = (change: string) => {
    for (const l of listeners) l(change);
  };
  const listener: TDatabaseListener = startDatabaseListener({
    database: ctx.database,
    channel: LORAWAN_CHANGED_CHANNEL,
    log: ctx.log,
    onNotify: (payload) => {
      directory.forget(payload);
      tell(payload);
    },
    onListening: () => {
      directory.forgetAll();
      tell('all');
    },
  });
  const runtime = {
    directory,
    uplinkLog,
    async changed(change: `integration:${number}` | 'devices') {
      directory.forget(change);
      tell(change);
      await ctx.db.execute(sql`select pg_notify(${LORAWAN_CHANGED_CHANNEL}, ${change})`);
    },
    onChange(l: (change: string) => void) {
      listeners.push(l);
    },
    async close() {
      await uplinkLog.close();
      await listener.close();
    },
  };
  runtimes.set(ctx, runtime);
  onClose(() => runtime.close());
  return runtime;
}
