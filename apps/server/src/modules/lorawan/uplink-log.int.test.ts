/**
 * The last-payloads writer (uplink-log.ts) against the database: a batch keeps the newest LORAWAN_LOG_SIZE entries of
 * each integration, bodies with quotes, backslashes, NUL and non-ASCII text come back as sent (NUL replaced; one over
 * the limit cut, never inside a surrogate pair), the
 * trim leaves the newest LORAWAN_LOG_SIZE rows, the counters add up, and an entry that comes after the writer closed
 * (the server stopping) is written without waiting for the flush interval. The interval's writes put at most
 * LORAWAN_LOG_SIZE rows of an integration in each UPLINK_LOG_WINDOW_MS (the newest wait for the next window, the
 * counters do not), while a console read's flush writes whatever waits.
 */
import { LORAWAN_LOG_BODY_MAX, LORAWAN_LOG_SIZE } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { lorawanIntegrations } from '../../db/schema.js';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { openTestDatabase, TEST_DB_KIND } from '../../../test/helpers.js';
import { listUplinks, UPLINK_LOG_FLUSH_MS, UPLINK_LOG_WINDOW_MS, type TUplinkRecord, UplinkLogWriter } from './uplink-log.js';

describe(`LoRaWAN last payloads writer (${TEST_DB_KIND})`, () => {
  let database: Database;
  let tenantId: number;
  let projectId: number;
  const integrations: number[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    const project = await buildDeviceProject(database.db, { count: 1 });
    tenantId = project.tenantId;
    projectId = project.projectId;
    for (const name of ['a', 'b']) {
      const [row] = await database.db
        .insert(lorawanIntegrations)
        .values({ tenantId, projectId, name, networkServer: 'chirpstack', secretHash: 'x', secretHint: 'x' })
        .returning({ id: lorawanIntegrations.id });
      integrations.push((row as { id: number }).id);
    }
  });
  afterAll(() => database.close());

  const entry = (integrationId: number, body: string, n: number): TUplinkRecord => ({
    integrationId,
    receivedAt: 1_700_000_000_000 + n,
    event: 'up',
    devEui: n % 2 ? '0101010101010101' : null,
    tangramId: null,
    outcome: n % 3 ? 'stored' : 'refused',
    reason: n % 3 ? null : 'unknown_device',
    detail: n % 3 ? '' : `no device "${n}"`,
    points: n % 3 ? 1 : 0,
    status: n % 3 ? 200 : 202,
    body: Buffer.from(body),
  });

  it('writes the newest entries of each integration with their bodies as sent, trims, and counts every entry', async () => {
    const [a, b] = integrations as [number, number];
    const writer = new UplinkLogWriter(database.db, pino({ level: 'silent' }));
    const awkward = '{"q":"say \\"hi\\"","path":"C:\\\\x","nul":"\u0000","t":"溫度 °C"}';
    for (let n = 0; n < LORAWAN_LOG_SIZE + 5; n += 1) writer.record(entry(a, n === LORAWAN_LOG_SIZE + 4 ? awkward : `{"n":${n}}`, n));
    writer.record(entry(b, '{"b":1}', 1));
    await writer.flush();
    // A second batch: the trim leaves the newest LORAWAN_LOG_SIZE rows of `a`.
    for (let n = 100; n < 103; n += 1) writer.record(entry(a, `{"n":${n}}`, n));
    await writer.flush();

    const logA = (await listUplinks(database.db, tenantId, projectId, a)).data;
    expect(logA).toHaveLength(LORAWAN_LOG_SIZE);
    expect(logA.slice(0, 4).map((r) => r.body)).toEqual(['{"n":102}', '{"n":101}', '{"n":100}', awkward.replace('\u0000', '\uFFFD')]);
    // The first batch kept entries 5…24, the second added 100…102: the newest LORAWAN_LOG_SIZE start at 8.
    expect(logA.at(-1)?.body).toBe(`{"n":${5 + 3}}`);
    const refused = logA.find((r) => r.outcome === 'refused');
    expect(refused).toMatchObject({ reason: 'unknown_device', status: 202, points: 0, truncated: false });
    expect(refused?.detail).toMatch(/^no device "\d+"$/);
    expect((await listUplinks(database.db, tenantId, projectId, b)).data.map((r) => r.body)).toEqual(['{"b":1}']);

    const rows = await database.db.select().from(lorawanIntegrations);
    const counted = (id: number) => rows.find((r) => r.id === id);
    const all = [...Array.from({ length: LORAWAN_LOG_SIZE + 5 }, (_, n) => n), 100, 101, 102];
    expect(counted(a)).toMatchObject({
      uplinksStored: all.filter((n) => n % 3).length,
      uplinksRefused: all.filter((n) => n % 3 === 0).length,
      lastReceivedAt: 1_700_000_000_000 + 102,
    });
    expect(counted(b)).toMatchObject({ uplinksStored: 1, uplinksRefused: 0 });
  });

  it('cuts a body over the limit before a surrogate pair the cut would halve, and writes it', async () => {
    const [, b] = integrations as [number, number];
    const writer = new UplinkLogWriter(database.db, pino({ level: 'silent' }));
    const head = 'a'.repeat(LORAWAN_LOG_BODY_MAX - 1);
    writer.record(entry(b, `${head}😀 and more`, 7));
    await writer.flush();
    const [newest] = (await listUplinks(database.db, tenantId, projectId, b)).data;
    expect(newest).toMatchObject({ body: head, truncated: true });
  });

  it('writes an entry that comes after it closed at once, not after the flush interval', async () => {
    const [, b] = integrations as [number, number];
    const writer = new UplinkLogWriter(database.db, pino({ level: 'silent' }));
    await writer.close();
    writer.record(entry(b, '{"late":true}', 1));
    const until = Date.now() + UPLINK_LOG_FLUSH_MS / 2;
    let bodies: string[] = [];
    while (!bodies.includes('{"late":true}') && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
      bodies = (await listUplinks(database.db, tenantId, projectId, b)).data.map((r) => r.body);
    }
    expect(bodies[0]).toBe('{"late":true}');
  });

  it("writes at most LORAWAN_LOG_SIZE rows of a busy integration per window; the next window's write has the newest", async () => {
    const [row] = await database.db
      .insert(lorawanIntegrations)
      .values({ tenantId, projectId, name: 'busy', networkServer: 'chirpstack', secretHash: 'x', secretHint: 'x' })
      .returning({ id: lorawanIntegrations.id });
    const busy = (row as { id: number }).id;
    let clock = 1_800_000_000_000;
    const writer = new UplinkLogWriter(database.db, pino({ level: 'silent' }), { now: () => clock });
    const bodies = async () => (await listUplinks(database.db, tenantId, projectId, busy)).data.map((r) => r.body);
    const counters = async () => {
      const [r] = await database.db.select().from(lorawanIntegrations).where(eq(lorawanIntegrations.id, busy));
      return r?.uplinksStored;
    };

    for (let n = 1; n <= 15; n += 1) writer.record(entry(busy, `{"n":${n}}`, 1));
    await writer.flushDue();
    expect(await bodies()).toHaveLength(15);
    // The window has room for 5 more: the newest 5 of the next 8 are written, the older 3 dropped.
    clock += UPLINK_LOG_FLUSH_MS;
    for (let n = 16; n <= 23; n += 1) writer.record(entry(busy, `{"n":${n}}`, 1));
    await writer.flushDue();
    expect((await bodies()).slice(0, 6)).toEqual(['{"n":23}', '{"n":22}', '{"n":21}', '{"n":20}', '{"n":19}', '{"n":15}']);
    // The window is full: these wait, but their counts are written.
    clock += UPLINK_LOG_FLUSH_MS;
    for (let n = 24; n <= 26; n += 1) writer.record(entry(busy, `{"n":${n}}`, 1));
    await writer.flushDue();
    expect((await bodies())[0]).toBe('{"n":23}');
    expect(await counters()).toBe(26);
    // The next window writes what waited.
    clock += UPLINK_LOG_WINDOW_MS;
    await writer.flushDue();
    expect((await bodies()).slice(0, 4)).toEqual(['{"n":26}', '{"n":25}', '{"n":24}', '{"n":23}']);

    // That window holds 3 rows: of the next 20 the newest 17 are written; the next one waits, but a console read
    // (flush) writes it at once.
    for (let n = 27; n <= 46; n += 1) writer.record(entry(busy, `{"n":${n}}`, 1));
    await writer.flushDue();
    writer.record(entry(busy, '{"n":47}', 1));
    await writer.flushDue();
    expect((await bodies())[0]).toBe('{"n":46}');
    await writer.flush();
    expect(await bodies()).toEqual([...Array.from({ length: 18 }, (_, i) => `{"n":${47 - i}}`), '{"n":26}', '{"n":25}']);
    expect(await counters()).toBe(47);
    await writer.close();
  });
});
