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
import { cachedLookup, type TCacheEntry } from '../../core/refreshing-cache.js';
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

/** A cached look-up of the webhook (core/refreshing-cache.ts). */
export type TEntry<T> = TCacheEntry<T>;

/**
 * `key`'s value from `map`, loaded by `load` when absent or stale (core/refreshing-cache.ts `cachedLookup`): a found
 * value kept {@link LORAWAN_CACHE_TTL_MS} and refreshed in the background, a miss {@link LORAWAN_MISS_TTL_MS}, at most
 * `maxEntries` (the least recently loaded go first).
 */
export function cached<K, T>(
  map: Map<K, TEntry<T | null>>,
  key: K,
  load: () => Promise<T | null>,
  maxEntries = LORAWAN_CACHE_MAX_ENTRIES,
): Promise<T | null> {
  return cachedLookup(map, key, { ttlMs: LORAWAN_CACHE_TTL_MS, missTtlMs: LORAWAN_MISS_TTL_MS, maxEntries }, load);
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
