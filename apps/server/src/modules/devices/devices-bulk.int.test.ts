import { ALREADY_REGISTERED, DUPLICATE_SERIAL, MAX_BULK_DEVICES, NAME_MAX, paths, type TDeviceRegistered } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { sha256 } from '../../core/crypto.js';
import { devices } from '../../db/schema.js';
import { createProjectVia, registerVia } from '../projects/catalogue.fixtures.js';

type TError = { code: string; message: string; details?: { path: string; message: string }[] };

describe(`bulk device registration with names and per-line answers (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let projectId: number;
  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    projectId = (await createProjectVia(server, vendor.token, 'Bulk project')).id;
    await registerVia(server, vendor.token, projectId, 'B0');
  });
  afterAll(() => server.stop());

  const countRows = async () => (await server.ctx.db.select().from(devices).where(eq(devices.projectId, projectId))).length;
  const bulk = (body: unknown, token = vendor.token, id = projectId) =>
    server.api<TDeviceRegistered[] & TError>('POST', paths.projectDevicesBulk(id), { token, body });

  it('registers devices with names (a missing name falls back to the padded serial), secrets stored hashed', async () => {
    const res = await bulk({ devices: [{ serial_number: 'b1', name: '  一號泵  ' }, { serial_number: 'B2' }] });
    expect(res.status).toBe(201);
    expect(res.body.map((d) => [d.sno, d.name])).toEqual([
      ['0000000000B1', '一號泵'],
      ['0000000000B2', '0000000000B2'],
    ]);
    const [row] = await server.ctx.db.select().from(devices).where(eq(devices.id, res.body[0].id));
    expect(row.secretHash).toBe(sha256(res.body[0].device_secret));
  });

  it('is all or nothing: 409 names every line already registered (any case, any padding), writing nothing', async () => {
    const before = await countRows();
    const res = await bulk({
      devices: [{ serial_number: 'C1' }, { serial_number: '00b0' }, { serial_number: 'C2' }, { serial_number: 'b1' }],
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    expect(res.body.details).toEqual([
      { path: 'body/devices/1/serial_number', message: ALREADY_REGISTERED },
      { path: 'body/devices/3/serial_number', message: ALREADY_REGISTERED },
    ]);
    expect(await countRows()).toBe(before);
    const shorthand = await bulk({ serial_numbers: ['C1', 'B0'] });
    expect(shorthand.body.details).toEqual([{ path: 'body/serial_numbers/1', message: ALREADY_REGISTERED }]);
    expect(await countRows()).toBe(before);
  });

  it('400 names every bad line: bad hex, too long, repeated, name over the limit', async () => {
    const before = await countRows();
    const res = await bulk({
      devices: [
        { serial_number: 'D1' },
        { serial_number: 'XYZ' },
        { serial_number: '1234567890ABC' },
        { serial_number: '0d1' },
        { serial_number: 'D5', name: 'n'.repeat(NAME_MAX + 1) },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.details?.map((x) => x.path)).toEqual([
      'body/devices/1/serial_number',
      'body/devices/2/serial_number',
      'body/devices/4/name',
      'body/devices/3/serial_number',
    ]);
    expect(res.body.details?.find((x) => x.path === 'body/devices/3/serial_number')?.message).toBe(DUPLICATE_SERIAL);
    expect(await countRows()).toBe(before);
  });

  it(`accepts ${MAX_BULK_DEVICES} devices with ${NAME_MAX}-character names and refuses one more; both forms at once are refused`, async () => {
    const p = await createProjectVia(server, vendor.token);
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ serial_number: (i + 0x2000).toString(16), name: `${i}`.padEnd(NAME_MAX, 'x') }));
    expect((await bulk({ devices: many(MAX_BULK_DEVICES + 1) }, vendor.token, p.id)).status).toBe(400);
    expect((await bulk({ devices: many(1), serial_numbers: ['E1'] }, vendor.token, p.id)).status).toBe(400);
    expect((await bulk({}, vendor.token, p.id)).status).toBe(400);
    const ok = await bulk({ devices: many(MAX_BULK_DEVICES) }, vendor.token, p.id);
    expect(ok.status).toBe(201);
    expect(ok.body).toHaveLength(MAX_BULK_DEVICES);
    expect(ok.body[999].name).toBe('999'.padEnd(NAME_MAX, 'x'));
  });

  it('401 without a token, 403 for a user, 404 for another tenant’s project', async () => {
    const body = { devices: [{ serial_number: 'F1' }] };
    expect((await server.api('POST', paths.projectDevicesBulk(projectId), { body })).status).toBe(401);
    const user = await buildUser(server, vendor.tenantId);
    expect((await bulk(body, user.token)).status).toBe(403);
    const other = await buildVendor(server);
    expect((await bulk(body, other.token)).status).toBe(404);
  });
});
