/**
 * The devices' HTTP side of deployments (docs/protocol.md "AI models"): a device trades its MQTT credentials (full
 * Tangram ID and secret, HTTP Basic) for a bearer token of its own valid DEVICE_TOKEN_TTL_S seconds, and with it
 * downloads the file of a deployment that is its own and current. The token is signed with a key of this purpose only,
 * so it never passes as a console login or a download link, and a console login never passes as it.
 */
import { and, eq, ne } from 'drizzle-orm';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { DEVICE_TOKEN_TTL_S, type TDeviceToken } from '@tessera/contracts';
import { digestEquals, sha256 } from '../../core/crypto.js';
import { notFound, unauthorized } from '../../core/errors.js';
import { purposeKey } from '../../core/purpose-key.js';
import type { Db } from '../../db/client.js';
import { aiModelDeployments, aiModelRevisions, devices } from '../../db/schema.js';
import type { TRevisionRow } from '../ai-models/revision-queries.js';

const DEVICE_AUDIENCE = 'tessera:device';
const deviceKey = (db: Db) => purposeKey(db, 'device_token_secret');
const ZDeviceClaims = z.object({ sub: z.string().regex(/^[1-9][0-9]*$/), tid: z.number().int() });

const badCredentials = () => unauthorized('the Tangram ID or secret is not right', 'DEVICE_CREDENTIALS_INVALID');

/** The Tangram ID and secret of an HTTP Basic `authorization` header (RFC 7617), or null. */
export function basicCredentials(header: string | undefined): { username: string; password: string } | null {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header?.trim() ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * POST /device/v1/token: a bearer token for the device whose full Tangram ID and secret the Basic header carries.
 * @throws AppError 401 DEVICE_CREDENTIALS_INVALID without the header or with a wrong ID or secret (the same answer
 *   for both, so the route tells nothing of which IDs exist).
 */
export async function issueDeviceToken(db: Db, authorization: string | undefined): Promise<TDeviceToken> {
  const credentials = basicCredentials(authorization);
  if (!credentials) throw badCredentials();
  const [device] = await db
    .select({ id: devices.id, tenantId: devices.tenantId, secretHash: devices.secretHash })
    .from(devices)
    .where(eq(devices.tangramId, credentials.username.toUpperCase()));
  // The digest is computed even for an unknown ID, so both answers take the same time.
  const digest = sha256(credentials.password);
  if (!device || !digestEquals(digest, device.secretHash)) throw badCredentials();
  const token = await new SignJWT({ tid: device.tenantId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(device.id))
    .setAudience(DEVICE_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + DEVICE_TOKEN_TTL_S)
    .sign(await deviceKey(db));
  return { token, expires_in_s: DEVICE_TOKEN_TTL_S };
}

/**
 * The device a bearer `authorization` header's device token speaks for.
 * @throws AppError 401 DEVICE_TOKEN_EXPIRED or DEVICE_TOKEN_INVALID.
 */
export async function deviceOfToken(db: Db, authorization: string | undefined): Promise<{ deviceId: number; tenantId: number }> {
  const token = /^Bearer (\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
  if (!token) throw unauthorized('send the device token as a bearer token', 'DEVICE_TOKEN_INVALID');
  try {
    const { payload } = await jwtVerify(token, await deviceKey(db), { audience: DEVICE_AUDIENCE, algorithms: ['HS256'] });
    const claims = ZDeviceClaims.parse(payload);
    return { deviceId: Number(claims.sub), tenantId: claims.tid };
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw unauthorized('the device token has expired; ask for a new one', 'DEVICE_TOKEN_EXPIRED');
    throw unauthorized('the device token is not valid', 'DEVICE_TOKEN_INVALID');
  }
}

/**
 * The revision of deployment `deploymentId` when it is the device's own and current (not superseded).
 * @throws AppError 404 otherwise (another device's deployment answers the same as a missing one).
 */
export async function deploymentRevision(
  db: Db,
  device: { deviceId: number; tenantId: number },
  deploymentId: number,
): Promise<TRevisionRow> {
  const [row] = await db
    .select({ revision: aiModelRevisions })
    .from(aiModelDeployments)
    .innerJoin(aiModelRevisions, eq(aiModelRevisions.id, aiModelDeployments.revisionId))
    .where(
      and(
        eq(aiModelDeployments.id, deploymentId),
        eq(aiModelDeployments.deviceId, device.deviceId),
        eq(aiModelDeployments.tenantId, device.tenantId),
        ne(aiModelDeployments.state, 'superseded'),
      ),
    );
  if (!row) throw notFound('model deployment');
  return row.revision;
}
