/**
 * A device's client certificate for MQTT over TLS (docs/deployment.md "Certificate login"): read, register (replaces
 * the previous one) and revoke its SHA-256 fingerprint. Registering or revoking closes the device's connections on
 * every replica, so a device logged in with a revoked certificate is dropped at once and cannot log in again.
 */
import { eq } from 'drizzle-orm';
import type { TDeviceCertificate } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TMessageBus } from '../../core/context.js';
import { conflict } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { deviceCertificates } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { deviceFor } from './access.js';

/**
 * The registered certificate of device `tangramId` (fingerprint null when none).
 * @throws AppError 404 when the device is missing or `principal` may not see it.
 */
export async function getDeviceCertificate(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceCertificate> {
  const device = await deviceFor(db, principal, tangramId);
  const [row] = await db.select().from(deviceCertificates).where(eq(deviceCertificates.deviceId, device.id));
  return { tangram_id: device.tangramId, fingerprint: row?.fingerprint ?? null, registered_at: row?.createdAt ?? null };
}

/**
 * Registers `fingerprint` (64 lower-case hex digits, normalised by the contract) as device `tangramId`'s certificate,
 * replacing any previous one; then closes the device's connections (one made with the old certificate must not stay).
 * @throws AppError 404 when the device is missing or `principal` may not see it; 409 CONFLICT when another device
 * has registered this certificate.
 */
export async function registerDeviceCertificate(
  deps: { db: Db; bus: TMessageBus; log: Pick<Logger, 'info' | 'warn'> },
  principal: TPrincipal,
  tangramId: string,
  fingerprint: string,
): Promise<TDeviceCertificate> {
  const device = await deviceFor(deps.db, principal, tangramId);
  const at = Date.now();
  try {
    await deps.db
      .insert(deviceCertificates)
      .values({ deviceId: device.id, fingerprint, createdAt: at })
      .onConflictDoUpdate({ target: deviceCertificates.deviceId, set: { fingerprint, createdAt: at } });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('this certificate is registered to another device');
    throw err;
  }
  deps.log.info({ accountId: principal.accountId, tangramId: device.tangramId, fingerprint }, 'device certificate registered');
  await revokeSessions(deps, device.tangramId);
  return { tangram_id: device.tangramId, fingerprint, registered_at: at };
}

/**
 * Revokes device `tangramId`'s certificate (nothing when none) and closes its connections.
 * @throws AppError 404 when the device is missing or `principal` may not see it.
 */
export async function revokeDeviceCertificate(
  deps: { db: Db; bus: TMessageBus; log: Pick<Logger, 'info' | 'warn'> },
  principal: TPrincipal,
  tangramId: string,
): Promise<void> {
  const device = await deviceFor(deps.db, principal, tangramId);
  const removed = await deps.db.delete(deviceCertificates).where(eq(deviceCertificates.deviceId, device.id)).returning();
  if (removed.length === 0) return;
  deps.log.info({ accountId: principal.accountId, tangramId: device.tangramId }, 'device certificate revoked');
  await revokeSessions(deps, device.tangramId);
}

async function revokeSessions(deps: { bus: TMessageBus; log: Pick<Logger, 'warn'> }, tangramId: string): Promise<void> {
  try {
    await deps.bus.revokeDevice(tangramId);
  } catch (err) {
    deps.log.warn({ err, tangramId }, 'device certificate changed, but its sessions on other replicas were not closed');
  }
}
