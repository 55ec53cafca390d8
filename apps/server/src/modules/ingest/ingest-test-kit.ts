/**
 * Helpers of the ingest integration tests: MQTT clients as a device or a browser, polling, and row counts.
 */
import { eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { browserClientId, deviceClientId } from '@tessera/contracts';
import { decodeJwt } from 'jose';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import { devices } from '../../db/schema.js';
import { sha256 } from '../../core/crypto.js';
import { BROWSER_USERNAME } from './auth.js';

/**
 * A client id the broker lets `username` use (contracts client-ids.ts): the device's Tangram ID with a random
 * suffix, or for a browser (`jwt`, password = access token) `web-{accountId}-` and a random suffix.
 */
export function clientIdFor(username: string, password: string): string {
  const suffix = randomBytes(4).toString('hex');
  if (username !== BROWSER_USERNAME) return deviceClientId(username, suffix);
  try {
    return browserClientId(Number(decodeJwt(password).sub), suffix);
  } catch {
    // Not a JWT: the login is refused for its password before its client id matters.
    return browserClientId(0, suffix);
  }
}

/** Connects an MQTT client (a client id of its own unless `extra` names one); rejects on a refused CONNACK instead of retrying. */
export function connectMqtt(url: string, username: string, password: string, extra: IClientOptions = {}): Promise<MqttClient> {
  return mqtt.connectAsync(url, {
    username,
    password,
    clientId: clientIdFor(username, password),
    reconnectPeriod: 0,
    connectTimeout: 5_000,
    ...extra,
  });
}

/** Gives device `deviceId` a new secret directly in the database (what regeneration stores) and answers it. */
export async function replaceDeviceSecret(db: Db, deviceId: number): Promise<string> {
  const secret = `rotated-${randomBytes(16).toString('hex')}`;
  await db
    .update(devices)
    .set({ secretHash: sha256(secret) })
    .where(eq(devices.id, deviceId));
  return secret;
}

/** The CONNACK refusal code of a login (MQTT 3.1.1 §3.2.2.3; 4 and 5 are refusals of the credentials), or 0 when accepted. */
export async function loginCode(url: string, username: string, password: string, extra: IClientOptions = {}): Promise<number> {
  try {
    const c = await connectMqtt(url, username, password, extra);
    await c.endAsync();
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

/** Connects as a browser: username `jwt`, password the access token, over `wsUrl`. */
export function connectBrowser(wsUrl: string, token: string): Promise<MqttClient> {
  return connectMqtt(wsUrl, BROWSER_USERNAME, token);
}

/** Polls `check` until it answers true or `timeoutMs` passes (then throws). */
export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Stored raw telemetry points of a device (of `key` when given): hot rows and the points of compressed chunks. */
export async function telemetryCount(db: Db, deviceId: number, key?: string): Promise<number> {
  // Hot rows and compressed chunks in one snapshot: points of a cold day may be merged into chunks by the storage
  // job's run at start while a test writes them (each point is in one or the other).
  const res = await db.execute(
    key
      ? sql`select (select count(*) from telemetry join telemetry_keys k on k.id = key_id where device_id = ${deviceId} and k.key = ${key})
          + (select coalesce(sum(n), 0) from telemetry_chunk where device_id = ${deviceId} and key = ${key}) as n`
      : sql`select (select count(*) from telemetry where device_id = ${deviceId})
          + (select coalesce(sum(n), 0) from telemetry_chunk where device_id = ${deviceId}) as n`,
  );
  return Number(rowsOf<{ n: number | string }>(res)[0].n);
}

/** The rejected-point counter of a device and reason (device_ingest_stats), 0 when absent. */
export async function rejectedCount(db: Db, deviceId: number, reason: string): Promise<number> {
  const res = await db.execute(sql`select count from device_ingest_stats where device_id = ${deviceId} and reason = ${reason}`);
  const row = rowsOf<{ count: number | string }>(res)[0];
  return row ? Number(row.count) : 0;
}

/** Subscribes and answers the granted QoS of each filter (128 = refused) instead of throwing on a refusal. */
export async function subscribeGranted(client: MqttClient, filters: string[]): Promise<number[]> {
  try {
    return (await client.subscribeAsync(filters, { qos: 1 })).map((g) => g.qos);
  } catch (err) {
    const granted = (err as { packet?: { granted?: (number | { qos: number })[] } }).packet?.granted;
    if (!granted) throw err;
    return granted.map((g) => (typeof g === 'number' ? g : g.qos));
  }
}
