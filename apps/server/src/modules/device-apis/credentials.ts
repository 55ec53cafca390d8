/**
 * A device's ThingsBoard-compatible access token (docs/decisions/device-apis.md "Access tokens"): read masked, or
 * issued anew — the only time the full token is answered. Issuing replaces the stored SHA-256 in one upsert, then
 * every replica closes the device's MQTT connections (native and token logins alike) and forgets cached credentials,
 * so the old token stops working at once.
 */
import { eq } from 'drizzle-orm';
import { DEVICE_CREDENTIALS_TYPE, maskAccessToken, type TDeviceCredentials } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TMessageBus } from '../../core/context.js';
import { randomSecret, sha256 } from '../../core/crypto.js';
import { notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { deviceAccessTokens } from '../../db/schema.js';
import { findVisibleDevice } from '../devices/access.js';

/** A new access token: 256 random bits, base64url (43 characters, safe in an MQTT username and a URL path). */
export function newAccessToken(): string {
  return randomSecret();
}

/**
 * The credentials of device `tangramId` (full Tangram ID or hex form, any case) with the token masked, or
 * `access_token_masked: null` when none was issued yet.
 * @throws AppError 404 when the device does not exist or `principal` may not see it.
 */
export async function readDeviceCredentials(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceCredentials> {
  const device = await findVisibleDevice(db, principal, tangramId);
  if (!device) throw notFound('device');
  const [row] = await db.select().from(deviceAccessTokens).where(eq(deviceAccessTokens.deviceId, device.id));
  return {
    tangram_id: device.tangramId,
    credentials_type: DEVICE_CREDENTIALS_TYPE,
    access_token: null,
    access_token_masked: row ? maskAccessToken(row.tokenLast4) : null,
    issued_at: row?.issuedAt ?? null,
  };
}

/**
 * Issues device `tangramId` a new access token (replacing any earlier one) and answers it in full — the only time it
 * is readable. After the commit `bus.revokeDevice` drops the device's connections everywhere; if that fails the new
 * token is still answered (it is stored) and the failure logged (the other replicas' caches expire within 10 s).
 * @throws AppError 404 when the device does not exist or `principal` may not see it.
 */
export async function rotateDeviceAccessToken(
  db: Db,
  bus: TMessageBus,
  log: Pick<Logger, 'info' | 'error'>,
  principal: TPrincipal,
  tangramId: string,
): Promise<TDeviceCredentials> {
  const device = await findVisibleDevice(db, principal, tangramId);
  if (!device) throw notFound('device');
  const token = newAccessToken();
  const stored = { tokenHash: sha256(token), tokenLast4: token.slice(-4), issuedAt: Date.now() };
  await db
    .insert(deviceAccessTokens)
    .values({ deviceId: device.id, ...stored })
    .onConflictDoUpdate({ target: deviceAccessTokens.deviceId, set: stored });
  log.info(
    { accountId: principal.accountId, tenantId: principal.tenantId, deviceId: device.id, tangramId: device.tangramId },
    'device access token issued',
  );
  try {
    await bus.revokeDevice(device.tangramId);
  } catch (err) {
    log.error(
      { err, deviceId: device.id, tangramId: device.tangramId },
      'device access token issued, but its sessions on other replicas were not revoked',
    );
  }
  return {
    tangram_id: device.tangramId,
    credentials_type: DEVICE_CREDENTIALS_TYPE,
    access_token: token,
    access_token_masked: maskAccessToken(stored.tokenLast4),
    issued_at: stored.issuedAt,
  };
}
