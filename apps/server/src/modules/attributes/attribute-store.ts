/**
 * Reading and writing device attributes (table `device_attributes`; docs/decisions/device-apis.md "Attributes"). A
 * write upserts every key of one message in one statement, stamped with one time, so a device or a vendor sees a
 * message whole or not at all; a scope holds at most ATTRIBUTES_PER_SCOPE_MAX keys (the count is taken with the
 * device row locked, so two writers cannot pass it together).
 */
import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import { ATTRIBUTES_PER_SCOPE_MAX, type TAttributeMap, type TAttributeScope, type TDeviceAttribute } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { deviceAttributes, devices } from '../../db/schema.js';

/** How a write ended: stored (at `updatedAt`), or refused because the scope would hold too many keys. */
export type TAttributeWrite = { ok: true; updatedAt: number } | { ok: false; reason: 'too_many_attributes' };

/**
 * Upserts `values` into device `deviceId`'s `scope`, all stamped `nowMs` (epoch ms).
 * Refused (nothing written) when the scope would then hold more than ATTRIBUTES_PER_SCOPE_MAX keys.
 */
export async function writeAttributes(
  db: Db,
  deviceId: number,
  scope: TAttributeScope,
  values: TAttributeMap,
  nowMs: number,
): Promise<TAttributeWrite> {
  const keys = Object.keys(values);
  if (keys.length === 0) return { ok: true, updatedAt: nowMs };
  return db.transaction(async (tx) => {
    await tx.select({ id: devices.id }).from(devices).where(eq(devices.id, deviceId)).for('update');
    const [counted] = await tx
      .select({
        total: sql<number>`count(*)::int`,
        known: sql<number>`count(*) filter (where ${inArray(deviceAttributes.key, keys)})::int`,
      })
      .from(deviceAttributes)
      .where(and(eq(deviceAttributes.deviceId, deviceId), eq(deviceAttributes.scope, scope)));
    const after = (counted?.total ?? 0) - (counted?.known ?? 0) + keys.length;
    if (after > ATTRIBUTES_PER_SCOPE_MAX) return { ok: false, reason: 'too_many_attributes' } as const;
    await tx
      .insert(deviceAttributes)
      .values(keys.map((key) => ({ deviceId, scope, key, value: values[key], updatedAt: nowMs })))
      .onConflictDoUpdate({
        target: [deviceAttributes.deviceId, deviceAttributes.scope, deviceAttributes.key],
        set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` },
      });
    return { ok: true, updatedAt: nowMs } as const;
  });
}

/**
 * Device `deviceId`'s attributes of `scope`, by key: every one (keys undefined), or those of `keys` that exist; with
 * `sinceMs`, only those written at or after it.
 */
export async function readAttributes(
  db: Db,
  deviceId: number,
  scope: TAttributeScope,
  keys?: string[],
  sinceMs?: number,
): Promise<TDeviceAttribute[]> {
  if (keys?.length === 0) return [];
  const rows = await db
    .select({ key: deviceAttributes.key, value: deviceAttributes.value, updatedAt: deviceAttributes.updatedAt })
    .from(deviceAttributes)
    .where(
      and(
        eq(deviceAttributes.deviceId, deviceId),
        eq(deviceAttributes.scope, scope),
        keys ? inArray(deviceAttributes.key, keys) : undefined,
        sinceMs !== undefined ? gte(deviceAttributes.updatedAt, sinceMs) : undefined,
      ),
    )
    .orderBy(asc(deviceAttributes.key));
  return rows.map((r) => ({ key: r.key, value: r.value, updated_at: r.updatedAt }));
}

/**
 * The devices (id and Tangram ID) with a shared attribute written at or after `sinceMs` (epoch ms): what a replica
 * that could not hear attribute changes for a while pushes again (ingest/thingsboard-downlink.ts). Not indexed by
 * time across devices: it reads the shared attributes of every device, which is why it runs only after a listener
 * was lost.
 */
export function devicesWithSharedWritesSince(db: Db, sinceMs: number): Promise<{ id: number; tangramId: string }[]> {
  return db
    .selectDistinct({ id: devices.id, tangramId: devices.tangramId })
    .from(deviceAttributes)
    .innerJoin(devices, eq(devices.id, deviceAttributes.deviceId))
    .where(and(eq(deviceAttributes.scope, 'shared'), gte(deviceAttributes.updatedAt, sinceMs)));
}

/** Attributes as a `{ key: value }` object (what the device API answers). */
export function attributeObject(items: TDeviceAttribute[]): TAttributeMap {
  const out: TAttributeMap = {};
  for (const a of items) out[a.key] = a.value;
  return out;
}

/** Deletes attribute `key` of device `deviceId`'s `scope`; answers whether there was one. */
export async function deleteAttribute(db: Db, deviceId: number, scope: TAttributeScope, key: string): Promise<boolean> {
  const gone = await db
    .delete(deviceAttributes)
    .where(and(eq(deviceAttributes.deviceId, deviceId), eq(deviceAttributes.scope, scope), eq(deviceAttributes.key, key)))
    .returning({ key: deviceAttributes.key });
  return gone.length > 0;
}

/**
 * The answer to a device's attribute request (`{"clientKeys":…,"sharedKeys":…}` on MQTT, the query of `GET
 * /api/v1/{token}/attributes`): `{ client, shared }` of the keys asked for. With neither list every client and shared
 * attribute; with one list only that scope (ThingsBoard's behaviour). Server attributes are never answered.
 */
export async function answerAttributeRequest(
  db: Db,
  deviceId: number,
  clientKeys: string[] | undefined,
  sharedKeys: string[] | undefined,
): Promise<{ client?: TAttributeMap; shared?: TAttributeMap }> {
  const all = clientKeys === undefined && sharedKeys === undefined;
  const out: { client?: TAttributeMap; shared?: TAttributeMap } = {};
  if (all || clientKeys) out.client = attributeObject(await readAttributes(db, deviceId, 'client', clientKeys));
  if (all || sharedKeys) out.shared = attributeObject(await readAttributes(db, deviceId, 'shared', sharedKeys));
  return out;
}
