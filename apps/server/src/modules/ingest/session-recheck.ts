/**
 * Device sessions checked again against the database when revocations may have gone unheard (docs/decisions/
 * scale-out.md "Device logins"): a replica's LISTEN connection that was lost and opened again cannot hear the
 * `tessera_device_revoked` notifications sent meanwhile, so a device whose secret, access token, certificate or gateway
 * flag changed on another replica — or that was deleted — would stay connected here with what it logged in with.
 * Each session holds what its login was checked against; after every LISTEN the sessions begun before it are compared
 * with the rows now stored, a thousand at a time, and those that no longer match are closed. The device logs in again
 * with its current credentials, or is refused.
 */
import type { Client } from 'aedes';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deviceAccessTokens, deviceCertificates, devices } from '../../db/schema.js';

/** One device session as its login was checked: the device row then, and the credential it presented. */
export interface TDeviceSession {
  client: Client;
  tangramId: string;
  /** The device's secret hash at login (SHA-256, hex): a rotated secret ends every session of the device. */
  secretHash: string;
  /** The gateway flag at login: a changed flag ends the sessions (what a token session may publish changed). */
  isGateway: boolean;
  /** The SHA-256 (hex) of the access token a token login presented. */
  tokenHash?: string;
  /** The SHA-256 fingerprint (64 lower-case hex digits) of the certificate a certificate login presented. */
  certificateFingerprint?: string;
}

/** Sessions compared per round of queries (each round reads at most one row per session from three tables). */
export const SESSION_RECHECK_CHUNK = 1_000;

/**
 * The sessions among `sessions` whose login would not hold now: the device is gone, its secret hash or gateway flag
 * changed, the access token presented no longer belongs to it, or the certificate presented is no longer registered
 * to it. Reads only; closing them is the caller's.
 * @throws the database error when a query fails (nothing is decided then: the caller tries again).
 */
export async function staleDeviceSessions(db: Db, sessions: readonly TDeviceSession[]): Promise<TDeviceSession[]> {
  const stale: TDeviceSession[] = [];
  for (let i = 0; i < sessions.length; i += SESSION_RECHECK_CHUNK) {
    const chunk = sessions.slice(i, i + SESSION_RECHECK_CHUNK);
    const [rows, tokens, certificates] = await Promise.all([
      currentDevices(db, chunk),
      credentialOwners(
        db,
        deviceAccessTokens,
        deviceAccessTokens.tokenHash,
        chunk.map((s) => s.tokenHash),
      ),
      credentialOwners(
        db,
        deviceCertificates,
        deviceCertificates.fingerprint,
        chunk.map((s) => s.certificateFingerprint),
      ),
    ]);
    for (const s of chunk) {
      const row = rows.get(s.tangramId);
      const holds =
        row !== undefined &&
        row.secretHash === s.secretHash &&
        row.isGateway === s.isGateway &&
        (s.tokenHash === undefined || tokens.get(s.tokenHash) === s.tangramId) &&
        (s.certificateFingerprint === undefined || certificates.get(s.certificateFingerprint) === s.tangramId);
      if (!holds) stale.push(s);
    }
  }
  return stale;
}

/** The stored secret hash and gateway flag of each device of `chunk`, by Tangram ID (a deleted device is absent). */
async function currentDevices(db: Db, chunk: readonly TDeviceSession[]): Promise<Map<string, { secretHash: string; isGateway: boolean }>> {
  const ids = [...new Set(chunk.map((s) => s.tangramId))];
  const rows = await db
    .select({ tangramId: devices.tangramId, secretHash: devices.secretHash, isGateway: devices.isGateway })
    .from(devices)
    .where(inArray(devices.tangramId, ids));
  return new Map(rows.map((r) => [r.tangramId, { secretHash: r.secretHash, isGateway: r.isGateway }]));
}

/**
 * The device (Tangram ID) each of `presented` (those defined: access token hashes, certificate fingerprints) belongs
 * to now in `table`, where each value belongs to one device.
 */
async function credentialOwners(
  db: Db,
  table: typeof deviceAccessTokens | typeof deviceCertificates,
  column: typeof deviceAccessTokens.tokenHash | typeof deviceCertificates.fingerprint,
  presented: readonly (string | undefined)[],
): Promise<Map<string, string>> {
  const values = [...new Set(presented.filter((v): v is string => v !== undefined))];
  if (values.length === 0) return new Map();
  const rows = await db
    .select({ value: column, tangramId: devices.tangramId })
    .from(table)
    .innerJoin(devices, eq(devices.id, table.deviceId))
    .where(inArray(column, values));
  return new Map(rows.map((r) => [r.value, r.tangramId]));
}
