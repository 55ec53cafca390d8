/**
 * Caches of what ingest looks up on every connect and publish: device rows by Tangram ID (for
 * credentials and ids) or by the SHA-256 of their access token (a ThingsBoard-compatible login,
 * docs/decisions/device-apis.md), and each project's telemetry keys (project_sensors and, when the project accepts
 * them, its undeclared keys: undeclared-keys.ts). A device row is kept {@link DEVICE_ROW_TTL_MS}: every change of
 * what ingest reads of it (secret, access token, gateway flag) is forgotten at once through device revocation
 * (device-revocation.ts), which forgets every row when its listener restarts, so the TTL only bounds a lost
 * notification; at most {@link DIRECTORY_MAX_DEVICES} rows are kept. A changed sensor list is seen within
 * {@link DIRECTORY_TTL_MS} (a change of undeclared keys or their setting at once: project-key-changes.ts); a device
 * that is not found is re-read sooner, so a just-registered device can connect.
 */
import { eq } from 'drizzle-orm';
import type { TNonNumericValueType, TTelemetryValueType } from '@tessera/contracts';
import { cachedLookup, type TCacheEntry, type TCacheLimits } from '../../core/refreshing-cache.js';
import type { Db } from '../../db/client.js';
import { deviceAccessTokens, devices, projectSensors, projects, projectUndeclaredKeys } from '../../db/schema.js';
import { UndeclaredKeys } from './undeclared-keys.js';

/** What ingest knows of a device. */
export interface TIngestDevice {
  id: number;
  tenantId: number;
  projectId: number;
  tangramId: string;
  secretHash: string;
  /** May publish for other devices on `v1/gateway/…` (docs/decisions/device-apis.md "Gateway"). */
  isGateway?: boolean;
}

/**
 * A project's telemetry keys as ingest's parser reads them: the set holds its numeric keys (the fast path asks only
 * `has`), `valueTypes` the type of each key whose values are not numbers (docs/decisions/telemetry.md); undeclared
 * keys it took are among them, and `undeclared` is present while the project accepts more.
 */
export type TProjectKeys = ReadonlySet<string> & {
  readonly valueTypes: ReadonlyMap<string, TNonNumericValueType>;
  readonly undeclared?: UndeclaredKeys;
};

/** How long a project's key set is reused, in milliseconds. */
export const DIRECTORY_TTL_MS = 10_000;
/**
 * How long a found device row is reused, in milliseconds: its changes are notified (device revocation), so this only
 * bounds a lost notification — and a fleet of devices each sending every few minutes (LoRaWAN) reads no row per
 * message.
 */
export const DEVICE_ROW_TTL_MS = 600_000;
/** How many device rows (by Tangram ID, and by access token) are kept at most (~300 bytes each). */
export const DIRECTORY_MAX_DEVICES = 100_000;
/** How long "no such device" is remembered, in milliseconds. */
export const DIRECTORY_MISS_TTL_MS = 1_000;
/** Project keys: kept {@link DIRECTORY_TTL_MS}, one entry per project (no bound beyond the projects there are). */
const KEY_LIMITS: TCacheLimits = { ttlMs: DIRECTORY_TTL_MS, missTtlMs: DIRECTORY_MISS_TTL_MS, maxEntries: Number.POSITIVE_INFINITY };

/** The columns of a device that ingest needs ({@link TIngestDevice}), whichever credential found it. */
const INGEST_DEVICE_COLUMNS = {
  id: devices.id,
  tenantId: devices.tenantId,
  projectId: devices.projectId,
  tangramId: devices.tangramId,
  secretHash: devices.secretHash,
  isGateway: devices.isGateway,
};

/** Device and project-key look-ups with a TTL cache (core/refreshing-cache.ts). */
export class DeviceDirectory {
  private readonly deviceCache = new Map<string, TCacheEntry<TIngestDevice | null>>();
  private readonly keyCache = new Map<number, TCacheEntry<TProjectKeys>>();
  private readonly tokenCache = new Map<string, TCacheEntry<TIngestDevice | null>>();

  /** `ttlMs`: how long a found device row is reused (0: every look-up reads the database). */
  private readonly deviceLimits: TCacheLimits;

  constructor(
    private readonly db: Db,
    ttlMs = DEVICE_ROW_TTL_MS,
  ) {
    this.deviceLimits = { ttlMs, missTtlMs: DIRECTORY_MISS_TTL_MS, maxEntries: DIRECTORY_MAX_DEVICES };
  }

  /** Forgets the cached row of `tangramId` (its secret changed, or it is gone): the next look-up reads it again. */
  forget(tangramId: string): void {
    this.deviceCache.delete(tangramId);
    // Which cached token belongs to the device is known only once its look-up resolved; revocations are rare.
    this.tokenCache.clear();
  }

  /** Forgets project `projectId`'s cached keys (its undeclared keys or their setting changed). */
  forgetProjectKeys(projectId: number): void {
    this.keyCache.delete(projectId);
  }

  /** Forgets every project's cached keys (a change may have been missed). */
  forgetAllProjectKeys(): void {
    this.keyCache.clear();
  }

  /** Forgets every cached device row (a revocation may have been missed). */
  forgetAll(): void {
    this.deviceCache.clear();
    this.tokenCache.clear();
  }

  /** The device whose access token has SHA-256 `tokenHash` (hex), or null. */
  deviceByTokenHash(tokenHash: string): Promise<TIngestDevice | null> {
    return cachedLookup(this.tokenCache, tokenHash, this.deviceLimits, async () => {
      const [row] = await this.db
        .select(INGEST_DEVICE_COLUMNS)
        .from(deviceAccessTokens)
        .innerJoin(devices, eq(devices.id, deviceAccessTokens.deviceId))
        .where(eq(deviceAccessTokens.tokenHash, tokenHash));
      return row ?? null;
    });
  }

  /** The device with this (upper-case) Tangram ID, or null. */
  device(tangramId: string): Promise<TIngestDevice | null> {
    return cachedLookup(this.deviceCache, tangramId, this.deviceLimits, async () => {
      const [row] = await this.db.select(INGEST_DEVICE_COLUMNS).from(devices).where(eq(devices.tangramId, tangramId));
      return row ?? null;
    });
  }

  /**
   * The telemetry keys a device of `projectId` may report, with their value types: one query (the project's setting
   * and its sensors), a second for its undeclared keys only when it accepts them.
   */
  projectKeys(projectId: number): Promise<TProjectKeys> {
    return cachedLookup(this.keyCache, projectId, KEY_LIMITS, async () => {
      const rows = await this.db
        .select({ accepts: projects.acceptsUndeclaredKeys, key: projectSensors.key, valueType: projectSensors.valueType })
        .from(projects)
        .leftJoin(projectSensors, eq(projectSensors.projectId, projects.id))
        .where(eq(projects.id, projectId));
      const valueTypes = new Map<string, TNonNumericValueType>();
      const numeric = new Set<string>();
      const take = (key: string, type: TTelemetryValueType) => {
        if (type === 'number') numeric.add(key);
        else valueTypes.set(key, type);
      };
      for (const r of rows) if (r.key !== null && r.valueType !== null) take(r.key, r.valueType);
      if (!rows[0]?.accepts) return Object.assign(numeric, { valueTypes });
      const held = await this.db
        .select({
          key: projectUndeclaredKeys.key,
          valueType: projectUndeclaredKeys.valueType,
          discardedAt: projectUndeclaredKeys.discardedAt,
        })
        .from(projectUndeclaredKeys)
        .where(eq(projectUndeclaredKeys.projectId, projectId));
      const discarded = new Set<string>();
      let offered = 0;
      for (const h of held) {
        if (numeric.has(h.key) || valueTypes.has(h.key)) continue;
        if (h.discardedAt !== null) discarded.add(h.key);
        else {
          take(h.key, h.valueType);
          offered += 1;
        }
      }
      return Object.assign(numeric, { valueTypes, undeclared: new UndeclaredKeys(projectId, numeric, valueTypes, discarded, offered) });
    });
  }
}
