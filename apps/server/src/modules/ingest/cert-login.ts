/**
 * Certificate login on the embedded broker's TLS listener (docs/deployment.md "Certificate login"): a device whose
 * client certificate chains to MQTT_TLS_CA and whose SHA-256 fingerprint is registered on its device page logs in
 * without a password. A certificate from another CA (not `authorized`), an unregistered or a revoked one logs in no
 * one. Looked up in the database on every such login (one indexed row): a revoked certificate stops working at once.
 */
import { TLSSocket } from 'node:tls';
import type { Client } from 'aedes';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deviceCertificates, devices } from '../../db/schema.js';
import type { DeviceDirectory, TIngestDevice } from './directory.js';

/** The fingerprint of the verified client certificate on `client`'s connection (64 lower-case hex digits), or null. */
export function verifiedCertificateFingerprint(client: Client): string | null {
  const conn = client.conn;
  if (!(conn instanceof TLSSocket) || !conn.authorized) return null;
  const fingerprint = conn.getPeerCertificate()?.fingerprint256;
  return fingerprint ? fingerprint.replaceAll(':', '').toLowerCase() : null;
}

/**
 * The device that registered the verified certificate `client` presented, with that certificate's fingerprint (what
 * its session is checked against again, session-recheck.ts), or null. A `username`, when the client sent one, must be
 * that device's Tangram ID.
 * @throws when the database cannot be read (the broker answers "server unavailable").
 */
export async function certificateDevice(
  db: Db,
  directory: DeviceDirectory,
  client: Client,
  username: string | undefined,
): Promise<{ device: TIngestDevice; fingerprint: string } | null> {
  const fingerprint = verifiedCertificateFingerprint(client);
  if (!fingerprint) return null;
  const [row] = await db
    .select({ tangramId: devices.tangramId })
    .from(deviceCertificates)
    .innerJoin(devices, eq(devices.id, deviceCertificates.deviceId))
    .where(eq(deviceCertificates.fingerprint, fingerprint));
  if (!row || (username && username.toUpperCase() !== row.tangramId)) return null;
  const device = await directory.device(row.tangramId);
  return device ? { device, fingerprint } : null;
}
