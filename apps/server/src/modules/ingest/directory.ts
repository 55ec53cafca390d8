/**
 * Short-lived caches of what ingest looks up on every connect and publish: device rows by Tangram ID (for
 * credentials and ids) or by the SHA-256 of their access token (a ThingsBoard-compatible login,
 * docs/decisions/device-apis.md), and each project's telemetry keys (project_sensors). A changed secret or sensor list is
 * seen within the TTL; a device that is not found is re-read sooner, so a just-registered device can connect.
 */
import { eq } from 'drizzle-orm';
import type { TNonNumericValueType } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { deviceAccessTokens, devices, projectSensors } from '../../db/schema.js';

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
 * `has`), `valueTypes` the type of each key whose values are not numbers (docs/decisions/telemetry.md).
 */
export type TProjectKeys = ReadonlySet<string> & { readonly valueTypes: ReadonlyMap<string, TNonNumericValueType> };

/** How long a found device row and a project's key set are reused, in milliseconds. */
export const DIRECTORY_TTL_MS = 10_000;
/** How long "no such device" is remembered, in milliseconds. */
export const DIRECTORY_MISS_TTL_MS = 1_000;

interface TEntry<T> {
  value: Promise<T>;
  expiresAt: number;
}

/** Device and project-key look-ups with a TTL cache. */
/** The columns of a device that ingest needs ({@link TIngestDevice}), whichever credential found it. */
const INGEST_DEVICE_COLUMNS = {
  id: devices.id,
  tenantId: devices.tenantId,
  projectId: devices.projectId,
  tangramId: devices.tangramId,
  secretHash: devices.secretHash,
  isGateway: devices.isGateway,
};

export class DeviceDirectory {
  private readonly deviceCache = new Map<string, TEntry<TIngestDevice | null>>();
  private readonly keyCache = new Map<number, TEntry<TProjectKeys>>();
  private readonly tokenCache = new Map<string, TEntry<TIngestDevice | null>>();

  /** `ttlMs`: how long a found device row is reused (0: every look-up reads the database). */
  constructor(
    private readonly db: Db,
    private readonly ttlMs = DIRECTORY_TTL_MS,
  ) {}

  /** Forgets the cached row of `tangramId` (its secret changed, or it is gone): the next look-up reads it again. */
  forget(tangramId: string): void {
    this.deviceCache.delete(tangramId);
    // Which cached token belongs to the device is known only once its look-up resolved; revocations are rare.
    this.tokenCache.clear();
  }

  /** Forgets every cached device row (a revocation may have been missed). */
  forgetAll(): void {
    this.deviceCache.clear();
    this.tokenCache.clear();
  }

  /** The device whose access token has SHA-256 `tokenHash` (hex), or null. */
  deviceByTokenHash(tokenHash: string): Promise<TIngestDevice | null> {
    return cached(this.tokenCache, tokenHash, this.ttlMs, async () => {
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
    return cached(this.deviceCache, tangramId, this.ttlMs, async () => {
      const [row] = await this.db.select(INGEST_DEVICE_COLUMNS).from(devices).where(eq(devices.tangramId, tangramId));
      return row ?? null;
    });
  }

  /** The telemetry keys a device of `projectId` may report, with their value types. */
  projectKeys(projectId: number): Promise<TProjectKeys> {
    return cached(this.keyCache, projectId, DIRECTORY_TTL_MS, async () => {
      const rows = await this.db
        .select({ key: projectSensors.key, valueType: projectSensors.valueType })
        .from(projectSensors)
        .where(eq(projectSensors.projectId, projectId));
      const valueTypes = new Map<string, TNonNumericValueType>();
      const numeric = new Set<string>();
      for (const r of rows) {
        if (r.valueType === 'number') numeric.add(r.key);
        else valueTypes.set(r.key, r.valueType);
      }
      return Object.assign(numeric, { valueTypes });
    });
  }
}

function cached<K, T>(map: Map<K, TEntry<T>>, key: K, ttlMs: number, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = map.get(key);
  if (hit && hit.expiresAt > now) return hit.value;
  const entry: TEntry<T> = { value: load(), expiresAt: now + ttlMs };
  map.set(key, entry);
  entry.value.then(
    (v) => {
      if (v === null) entry.expiresAt = Date.now() + Math.min(ttlMs, DIRECTORY_MISS_TTL_MS);
    },
    () => map.delete(key),
  );
  return entry.value;
}
