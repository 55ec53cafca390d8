/**
 * The devices behind gateways, in the database (docs/decisions/device-apis.md "Gateway"): a name a gateway sends is
 * matched to a device of the gateway's own tenant and project — never another's — and cached like directory.ts
 * caches device rows (found: DIRECTORY_TTL_MS; not found: DIRECTORY_MISS_TTL_MS, so a device registered or created
 * meanwhile is found within a second). When no device has the name and the project lets its gateways create devices,
 * one is registered like any other (a random serial number, a secret nobody is shown). Also the presence writes
 * (connected behind a gateway, left it) and the refusal counter of a gateway.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { deviceIngestStats, devices, projects } from '../../db/schema.js';
import { AppError } from '../../core/errors.js';
import { registerDevices } from '../devices/register-devices.js';
import { DIRECTORY_MISS_TTL_MS, DIRECTORY_TTL_MS, type TIngestDevice } from './directory.js';

/** What a name sent by a gateway stands for: a device, none (`unknown_device`), or several of that name (`ambiguous_device`). */
export type TNamedDevice = { kind: 'device'; device: TIngestDevice } | { kind: 'refused'; reason: TGatewayRefusal };

/** Why a gateway's message for a device was refused (counted in device_ingest_stats of the gateway). */
export type TGatewayRefusal = 'unknown_device' | 'ambiguous_device';

/** How many times registering a device under a random serial number is tried (a serial taken by chance). */
const CREATE_ATTEMPTS = 3;

interface TEntry {
  value: Promise<TNamedDevice>;
  expiresAt: number;
}

/** Name → device of gateways' projects, with a TTL cache, and the database writes of gateway presence. */
export class GatewayDirectory {
  private readonly names = new Map<string, TEntry>();

  constructor(
    private readonly db: Db,
    private readonly log: Pick<Logger, 'error'>,
    private readonly ttlMs = DIRECTORY_TTL_MS,
  ) {}

  /** Forgets every cached name (a device was renamed, created or moved). */
  forgetAll(): void {
    this.names.clear();
  }

  /**
   * The device named `name` in `gateway`'s tenant and project, created there when none is and the project allows it.
   * Concurrent look-ups of one name share one query (and one creation).
   */
  resolve(gateway: TIngestDevice, name: string): Promise<TNamedDevice> {
    const key = `${gateway.tenantId}:${gateway.projectId}:${name}`;
    const now = Date.now();
    const hit = this.names.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const entry: TEntry = { value: this.load(gateway, name), expiresAt: now + this.ttlMs };
    this.names.set(key, entry);
    entry.value.then(
      (v) => {
        if (v.kind === 'refused') entry.expiresAt = Date.now() + Math.min(this.ttlMs, DIRECTORY_MISS_TTL_MS);
      },
      () => this.names.delete(key),
    );
    return entry.value;
  }

  private async load(gateway: TIngestDevice, name: string): Promise<TNamedDevice> {
    const found = await this.byName(gateway, name);
    if (found.length > 1) return { kind: 'refused', reason: 'ambiguous_device' };
    if (found[0]) return { kind: 'device', device: found[0] };
    const [project] = await this.db
      .select({ creates: projects.gatewayCreatesDevices })
      .from(projects)
      .where(and(eq(projects.id, gateway.projectId), eq(projects.tenantId, gateway.tenantId)));
    if (!project?.creates) return { kind: 'refused', reason: 'unknown_device' };
    try {
      return { kind: 'device', device: await this.create(gateway, name) };
    } catch (err) {
      // Registration refused (the project's product cannot make a Tangram ID): a refusal, not an outage to retry.
      if (!(err instanceof AppError) && !(err instanceof RangeError)) throw err;
      this.log.error({ err, gateway: gateway.tangramId, projectId: gateway.projectId }, 'a device named by a gateway could not be created');
      return { kind: 'refused', reason: 'unknown_device' };
    }
  }

  private byName(gateway: TIngestDevice, name: string): Promise<TIngestDevice[]> {
    return this.db
      .select({
        id: devices.id,
        tenantId: devices.tenantId,
        projectId: devices.projectId,
        tangramId: devices.tangramId,
        secretHash: devices.secretHash,
        isGateway: devices.isGateway,
      })
      .from(devices)
      .where(and(eq(devices.tenantId, gateway.tenantId), eq(devices.projectId, gateway.projectId), eq(devices.name, name)))
      .limit(2);
  }

  /** Registers device `name` in the gateway's project under a random 12-hex-digit serial number. */
  private async create(gateway: TIngestDevice, name: string): Promise<TIngestDevice> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const [created] = await registerDevices(this.db, gateway.tenantId, gateway.projectId, [
          { serialNumber: randomBytes(6).toString('hex'), name },
        ]);
        if (!created) throw new Error('no device registered');
        return {
          id: created.id,
          tenantId: gateway.tenantId,
          projectId: gateway.projectId,
          tangramId: created.tangram_id,
          secretHash: '',
          isGateway: false,
        };
      } catch (err) {
        const taken = err instanceof AppError && err.statusCode === 409;
        if (!taken || attempt >= CREATE_ATTEMPTS) throw err;
      }
    }
  }

  /**
   * Devices `ids` are connected behind `gateway` from `nowMs`: heard from now (online), their gateway remembered, any
   * earlier leaving forgotten. Rows are locked in id order, as ingest's batch writes lock them (no deadlock).
   */
  async connected(gateway: TIngestDevice, ids: number[], nowMs: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db.execute(sql`
      with locked as (
        select id from devices where id = any(${sqlIntArray(ids)}) and tenant_id = ${gateway.tenantId} order by id for no key update
      )
      update devices set last_seen_at = greatest(coalesce(devices.last_seen_at, 0), ${nowMs}),
        first_seen_at = coalesce(devices.first_seen_at, ${nowMs}), gateway_id = ${gateway.id}, gateway_left_at = null
      from locked where devices.id = locked.id`);
  }

  /** Devices `ids`, connected behind `gateway`, left it (or it dropped) at `nowMs`: offline until heard from again. */
  async left(gateway: TIngestDevice, ids: number[], nowMs: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db.execute(sql`
      with locked as (
        select id from devices where id = any(${sqlIntArray(ids)}) and gateway_id = ${gateway.id} order by id for no key update
      )
      update devices set gateway_left_at = greatest(${nowMs}, coalesce(devices.last_seen_at, 0)) from locked where devices.id = locked.id`);
  }

  /** Devices `ids` are still connected behind their gateways at `nowMs` (ThingsBoard's "overwrite activity time"). */
  async stillConnected(ids: number[], nowMs: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db.execute(sql`
      with locked as (select id from devices where id = any(${sqlIntArray(ids)}) and gateway_left_at is null order by id for no key update)
      update devices set last_seen_at = greatest(coalesce(devices.last_seen_at, 0), ${nowMs}) from locked where devices.id = locked.id`);
  }

  /** Counts `count` refusals of `reason` on the gateway (its device_ingest_stats, beside ingest's reasons). */
  async countRefused(gateway: TIngestDevice, reason: TGatewayRefusal, count: number, nowMs: number): Promise<void> {
    await this.db
      .insert(deviceIngestStats)
      .values({ deviceId: gateway.id, reason, count, lastAt: nowMs })
      .onConflictDoUpdate({
        target: [deviceIngestStats.deviceId, deviceIngestStats.reason],
        set: { count: sql`${deviceIngestStats.count} + ${count}`, lastAt: nowMs },
      });
  }
}

/** `ids` as a PostgreSQL int[] literal parameter. */
function sqlIntArray(ids: number[]) {
  return sql`${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::int[]`;
}
