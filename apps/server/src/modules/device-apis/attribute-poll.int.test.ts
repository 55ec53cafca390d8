/**
 * ThingsBoard's HTTP attribute long poll `GET /api/v1/{token}/attributes/updates?timeout=` (docs/protocol.md
 * "ThingsBoard device API (HTTP)", docs/decisions/device-apis.md "Attributes"): a shared attribute set or deleted in
 * the console while the poll is open answers it with the change; nothing else does (another device's change, client
 * and server attributes); 408 at the timeout; 401 for a wrong token; 400 for a timeout out of bounds; the change
 * reaches a poll held by another replica. With fetch against the real server.
 */
import { DEVICE_POLL_MAX_MS, DEVICE_POLL_MIN_MS, deviceAttributePaths as ap, paths, type TDeviceCredentials } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { openScratchPostgres, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { writeAttributes } from '../attributes/attribute-store.js';
import { waitUntil } from '../ingest/ingest-test-kit.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An open poll: its answer (status, JSON body or null) once it came, and whether it came yet. */
function openPoll(url: string): { answered: () => boolean; answer: Promise<{ status: number; body: unknown; ms: number }> } {
  let done = false;
  const t0 = Date.now();
  const answer = fetch(url).then(async (r) => {
    const text = await r.text();
    done = true;
    return { status: r.status, body: text ? (JSON.parse(text) as unknown) : null, ms: Date.now() - t0 };
  });
  return { answered: () => done, answer };
}

describe(`ThingsBoard HTTP attribute long poll (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let devs: TBuiltDevice[];
  const tokens: string[] = [];
  const updates = (i: number, timeoutMs: number) => `${server.httpUrl}/api/v1/${tokens[i]}/attributes/updates?timeout=${timeoutMs}`;
  const setShared = async (d: TBuiltDevice, body: Record<string, unknown>, scope: 'shared' | 'server' = 'shared') =>
    expect((await server.api('POST', ap.scope(d.tangramId, scope), { token: vendor.token, body })).status).toBe(200);

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    devs = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 })).devices;
    for (const d of devs) {
      tokens.push(
        (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(d.tangramId), { token: vendor.token })).body
          .access_token as string,
      );
    }
  });
  afterAll(() => server.stop());

  it('answers the shared attributes set while the poll is open, and a deletion as {"deleted":[key]}', async () => {
    const dev = devs[0] as TBuiltDevice;
    const poll = openPoll(updates(0, 10_000));
    // Set until the poll (whose start the test cannot see) has taken the change.
    await waitUntil(async () => {
      if (!poll.answered()) await setShared(dev, { interval: 30, mode: 'eco' });
      await sleep(100);
      return poll.answered();
    }, 8_000);
    expect(await poll.answer).toMatchObject({ status: 200, body: { interval: 30, mode: 'eco' } });

    // A deletion: the key is written back directly (no notification) and deleted in the console until the poll takes it.
    const del = openPoll(updates(0, 10_000));
    await waitUntil(async () => {
      if (!del.answered()) {
        await writeAttributes(server.ctx.db, dev.id, 'shared', { mode: 'eco' }, Date.now());
        expect((await server.api('DELETE', ap.key(dev.tangramId, 'shared', 'mode'), { token: vendor.token })).status).toBe(204);
      }
      await sleep(100);
      return del.answered();
    }, 8_000);
    expect(await del.answer).toMatchObject({ status: 200, body: { deleted: ['mode'] } });
  });

  it('408 at the timeout; another device’s change, a server attribute and client attributes do not answer it', async () => {
    const [dev, other] = devs as [TBuiltDevice, TBuiltDevice];
    const poll = openPoll(updates(0, 1_500));
    for (let i = 0; i < 5; i += 1) {
      await setShared(other, { interval: i });
      await setShared(dev, { secret: i }, 'server');
      expect((await fetch(`${server.httpUrl}/api/v1/${tokens[0]}/attributes`, { method: 'POST', body: `{"battery":${i}}` })).status).toBe(
        200,
      );
      await sleep(100);
    }
    const answer = await poll.answer;
    expect(answer.status).toBe(408);
    expect(answer.body).toMatchObject({ code: 'DEVICE_TIMEOUT' });
    expect(answer.ms).toBeGreaterThanOrEqual(1_450);

    const t0 = Date.now();
    const short = await fetch(updates(0, DEVICE_POLL_MIN_MS));
    expect(short.status).toBe(408);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(DEVICE_POLL_MIN_MS - 10);
  });

  it('401 for a token no device has; 400 for a timeout out of bounds or not a number', async () => {
    const wrong = await fetch(`${server.httpUrl}/api/v1/not-a-token/attributes/updates?timeout=300`);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'AUTH_WRONG_CREDENTIALS' });
    for (const timeout of [DEVICE_POLL_MIN_MS - 1, DEVICE_POLL_MAX_MS + 1, 'soon']) {
      const res = await fetch(`${server.httpUrl}/api/v1/${tokens[0]}/attributes/updates?timeout=${timeout}`);
      expect(res.status, String(timeout)).toBe(400);
    }
  });

  it.skipIf(TEST_DB_KIND !== 'postgres')('answers a poll held by another replica than the one the change was made on', async () => {
    const database = await openScratchPostgres(process.env.DATABASE_URL ?? '', 4, 'tessera_attr_poll');
    const a = await startTestServer({}, database);
    const b = await startTestServer({}, database);
    try {
      const v = await buildVendor(a);
      const [d] = (await buildDeviceProject(a.ctx.db, { tenantId: v.tenantId, count: 1 })).devices;
      const t = (await a.api<TDeviceCredentials>('POST', paths.deviceCredentials(d.tangramId), { token: v.token })).body
        .access_token as string;
      const poll = openPoll(`${b.httpUrl}/api/v1/${t}/attributes/updates?timeout=10000`);
      // Set on replica a until replica b's poll and listener are in place (a notification sent before is lost, by design).
      await waitUntil(async () => {
        if (!poll.answered())
          expect((await a.api('POST', ap.scope(d.tangramId, 'shared'), { token: v.token, body: { mode: 'night' } })).status).toBe(200);
        await sleep(100);
        return poll.answered();
      }, 8_000);
      expect(await poll.answer).toMatchObject({ status: 200, body: { mode: 'night' } });
    } finally {
      await a.stop();
      await b.stop();
      await database.close();
    }
  });
});
