/**
 * Regenerating a device's MQTT secret (docs/decisions/devices-bulk.md "Regenerating a device's secret"): a new
 * 256-bit secret from the registration's generator replaces the stored SHA-256 in one UPDATE, then every replica
 * closes the device's connections and forgets its cached credentials, so the old secret stops working at once.
 */
import { and, eq } from 'drizzle-orm';
import type { TDeviceSecret } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TMessageBus } from '../../core/context.js';
import { randomSecret, sha256 } from '../../core/crypto.js';
import { notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { devices } from '../../db/schema.js';
import { visibleDevicesCondition } from './access.js';

/**
 * Gives device `tangramId` (full Tangram ID or hex form, any case) a new secret and answers it — the only time it is
 * readable. The caller is a vendor or admin of the device's tenant (the route checks the level and the session).
 * The UPDATE reads visibility in its WHERE clause, so another tenant's device and a missing one look alike. After it
 * committed, `bus.revokeDevice` drops the device's connections everywhere; if that fails the new secret is still
 * answered (it is stored: losing it would strand the device) and the failure logged, since this replica closed its
 * own connections first and the others' cached credentials expire within the ingest directory's TTL (10 s).
 * @throws AppError 404 when the device does not exist or `principal` may not see it.
 */
export async function rotateDeviceSecret(
  db: Db,
  bus: TMessageBus,
  log: Pick<Logger, 'info' | 'error'>,
  principal: TPrincipal,
  tangramId: string,
): Promise<TDeviceSecret> {
  const secret = randomSecret();
  const [row] = await db
    .update(devices)
    .set({ secretHash: sha256(secret) })
    .where(and(eq(devices.tangramId, tangramId.toUpperCase()), visibleDevicesCondition(principal)))
    .returning({ id: devices.id, tangramId: devices.tangramId });
  if (!row) throw notFound('device');
  log.info(
    { accountId: principal.accountId, tenantId: principal.tenantId, deviceId: row.id, tangramId: row.tangramId },
    'device secret regenerated',
  );
  try {
    await bus.revokeDevice(row.tangramId);
  } catch (err) {
    log.error(
      { err, deviceId: row.id, tangramId: row.tangramId },
      'device secret regenerated, but its sessions on other replicas were not revoked',
    );
  }
  return { tangram_id: row.tangramId, device_secret: secret };
}
