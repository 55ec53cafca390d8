/**
 * Device sessions checked again against the database (session-recheck.ts), on both databases: each kind of change a
 * revocation announces — a secret rotated, an access token replaced or moved to another device, a certificate
 * removed, the gateway flag changed, the device deleted — makes a session that logged in before it stale, and a
 * session whose credentials still hold is kept.
 */
import type { Client } from 'aedes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { sha256 } from '../../core/crypto.js';
import { deviceAccessTokens, deviceCertificates, devices } from '../../db/schema.js';
import { replaceDeviceSecret } from './ingest-test-kit.js';
import { staleDeviceSessions, type TDeviceSession } from './session-recheck.js';

describe(`device sessions checked again (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let built: TBuiltDevice[];
  beforeAll(async () => {
    server = await startTestServer();
    built = (await buildDeviceProject(server.ctx.db, { count: 9 })).devices;
  });
  afterAll(() => server.stop());

  /** A session of device `d` as its login saw the stored row now, with the credential it presented. */
  async function sessionOf(
    d: TBuiltDevice,
    credential: { tokenHash?: string; certificateFingerprint?: string } = {},
  ): Promise<TDeviceSession> {
    const [row] = await server.ctx.db
      .select({ secretHash: devices.secretHash, isGateway: devices.isGateway })
      .from(devices)
      .where(eq(devices.id, d.id));
    if (!row) throw new Error(`no device ${d.tangramId}`);
    return { client: { id: d.tangramId } as unknown as Client, tangramId: d.tangramId, ...row, ...credential };
  }

  it('finds stale exactly the sessions whose device, secret, token, certificate or gateway flag changed since login', async () => {
    const [secretKept, secretRotated, tokenKept, tokenReplaced, tokenMoved, certKept, certRemoved, flagChanged, deleted] = built;
    const token = (d: TBuiltDevice, name: string) => ({
      deviceId: d.id,
      tokenHash: sha256(name),
      tokenLast4: name.slice(-4),
      issuedAt: Date.now(),
    });
    await server.ctx.db
      .insert(deviceAccessTokens)
      .values([token(tokenKept, 'token-kept'), token(tokenReplaced, 'token-old'), token(tokenMoved, 'token-moved')]);
    const fingerprint = (n: number) => String(n).repeat(64).slice(0, 64);
    await server.ctx.db.insert(deviceCertificates).values([
      { deviceId: certKept.id, fingerprint: fingerprint(1) },
      { deviceId: certRemoved.id, fingerprint: fingerprint(2) },
    ]);
    const sessions = [
      await sessionOf(secretKept),
      await sessionOf(secretRotated),
      await sessionOf(tokenKept, { tokenHash: sha256('token-kept') }),
      await sessionOf(tokenReplaced, { tokenHash: sha256('token-old') }),
      await sessionOf(tokenMoved, { tokenHash: sha256('token-moved') }),
      await sessionOf(certKept, { certificateFingerprint: fingerprint(1) }),
      await sessionOf(certRemoved, { certificateFingerprint: fingerprint(2) }),
      await sessionOf(flagChanged),
      await sessionOf(deleted),
    ];
    expect(await staleDeviceSessions(server.ctx.db, sessions)).toEqual([]);

    // The changes, made with no revocation heard.
    const db = server.ctx.db;
    await replaceDeviceSecret(db, secretRotated.id);
    await db
      .update(deviceAccessTokens)
      .set({ tokenHash: sha256('token-new') })
      .where(eq(deviceAccessTokens.deviceId, tokenReplaced.id));
    // The token another device holds now (its own was dropped): the session's device no longer owns it.
    await db.delete(deviceAccessTokens).where(eq(deviceAccessTokens.deviceId, tokenMoved.id));
    await db
      .update(deviceAccessTokens)
      .set({ tokenHash: sha256('token-moved') })
      .where(eq(deviceAccessTokens.deviceId, tokenKept.id));
    await db.delete(deviceCertificates).where(eq(deviceCertificates.deviceId, certRemoved.id));
    await db.update(devices).set({ isGateway: true }).where(eq(devices.id, flagChanged.id));
    await db.delete(devices).where(eq(devices.id, deleted.id));

    const stale = (await staleDeviceSessions(db, sessions)).map((s) => s.tangramId);
    expect(stale.sort()).toEqual(
      [secretRotated, tokenReplaced, tokenMoved, tokenKept, certRemoved, flagChanged, deleted].map((d) => d.tangramId).sort(),
    );
    expect(stale).not.toContain(secretKept.tangramId);
    expect(stale).not.toContain(certKept.tangramId);
  });

  it('checks more sessions than one round of queries takes, and none at all', async () => {
    const one = await sessionOf(built[0] as TBuiltDevice);
    const many = Array.from({ length: 2_500 }, () => one);
    expect(await staleDeviceSessions(server.ctx.db, many)).toEqual([]);
    expect(await staleDeviceSessions(server.ctx.db, [])).toEqual([]);
  });
});
