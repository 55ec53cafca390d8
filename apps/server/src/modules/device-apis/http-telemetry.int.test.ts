/**
 * ThingsBoard's HTTP device API (docs/protocol.md "ThingsBoard device API (HTTP)") with real clients, fetch and curl:
 * 200 only once committed, the refusals (401, 400 counted like MQTT refusals, 413, 429 per token and past the device's
 * points-per-second allowance).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  DEVICE_RATE_BURST_POINTS,
  MAX_POINTS_PER_MESSAGE,
  MQTT_MAX_PACKET_BYTES,
  paths,
  type TDeviceCredentials,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildVendor } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { rejectedCount, telemetryCount } from '../ingest/ingest-test-kit.js';
import { HTTP_DEVICE_RATE_LIMIT } from './http-routes.js';

const run = promisify(execFile);

describe(`ThingsBoard HTTP device API (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let dev: TBuiltDevice;
  let other: TBuiltDevice;
  let fast: TBuiltDevice;
  let token = '';
  let otherToken = '';
  let fastToken = '';

  const post = (t: string, body: string | Buffer, contentType = 'application/json') =>
    fetch(`${server.httpUrl}/api/v1/${t}/telemetry`, { method: 'POST', headers: { 'content-type': contentType }, body });

  beforeAll(async () => {
    server = await startTestServer();
    const vendor = await buildVendor(server);
    [dev, other, fast] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 })).devices;
    const issue = async (d: TBuiltDevice) =>
      (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(d.tangramId), { token: vendor.token })).body
        .access_token as string;
    token = await issue(dev);
    otherToken = await issue(other);
    fastToken = await issue(fast);
  });
  afterAll(() => server.stop());

  it('200 after the commit for the flat, timestamped and array forms', async () => {
    const flat = await post(token, JSON.stringify({ temperature: 25, humidity: 50 }));
    expect(flat.status).toBe(200);
    expect(await flat.text()).toBe('');
    // Answered after the commit: the points are stored now.
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(1);
    expect(await telemetryCount(server.ctx.db, dev.id, 'humidity')).toBe(1);
    const ts = Date.now() - 5_000;
    expect((await post(token, JSON.stringify({ ts, values: { temperature: 24 } }))).status).toBe(200);
    expect(
      (
        await post(
          token,
          JSON.stringify([
            { ts: ts - 1, values: { current: 1 } },
            { ts: ts - 2, values: { current: 2 } },
          ]),
        )
      ).status,
    ).toBe(200);
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(2);
    expect(await telemetryCount(server.ctx.db, dev.id, 'current')).toBe(2);
    expect(await telemetryCount(server.ctx.db, other.id)).toBe(0);
  });

  it('401 for a token no device has; 400 with a code for malformed JSON, an undeclared key and a string value, counted', async () => {
    const wrong = await post(`${token}x`, JSON.stringify({ temperature: 1 }));
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { code: string }).code).toBe('AUTH_WRONG_CREDENTIALS');
    const malformedBefore = await rejectedCount(server.ctx.db, other.id, 'malformed');
    const unknownBefore = await rejectedCount(server.ctx.db, other.id, 'unknown_key');
    const bad = await post(otherToken, '{"temperature": ');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('malformed') });
    const undeclared = await post(otherToken, JSON.stringify({ pressure: 1013 }));
    expect(undeclared.status).toBe(400);
    expect(((await undeclared.json()) as { message: string }).message).toContain('unknown_key');
    expect((await post(otherToken, JSON.stringify({ temperature: 'warm' }))).status).toBe(400);
    expect(await rejectedCount(server.ctx.db, other.id, 'malformed')).toBe(malformedBefore + 2);
    expect(await rejectedCount(server.ctx.db, other.id, 'unknown_key')).toBe(unknownBefore + 1);
    expect(await telemetryCount(server.ctx.db, other.id)).toBe(0);
  });

  it('413 over the MQTT packet limit, storing nothing', async () => {
    const big = await post(otherToken, Buffer.alloc(MQTT_MAX_PACKET_BYTES + 1, 0x20));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await telemetryCount(server.ctx.db, other.id)).toBe(0);
  });

  it('takes curl as ThingsBoard documents it (a form content type included)', async () => {
    const before = await telemetryCount(server.ctx.db, other.id, 'temperature');
    const { stdout } = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-d',
      '{"temperature":21}',
      `${server.httpUrl}/api/v1/${otherToken}/telemetry`,
    ]);
    expect(stdout).toBe('200');
    const json = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"temperature":22}',
      `${server.httpUrl}/api/v1/${otherToken}/telemetry`,
    ]);
    expect(json.stdout).toBe('200');
    expect(await telemetryCount(server.ctx.db, other.id, 'temperature')).toBe(before + 2);
  });

  it('429, storing nothing, for a message past the device’s points-per-second allowance, counted like MQTT', async () => {
    const now = Date.now();
    // Message m holds MAX_POINTS_PER_MESSAGE points of its own timestamps (none a resend of another's).
    const message = (m: number) =>
      JSON.stringify(
        Array.from({ length: MAX_POINTS_PER_MESSAGE }, (_, i) => ({ ts: now - m * MAX_POINTS_PER_MESSAGE - i, values: { current: i } })),
      );
    // Three bursts' worth at once: the bucket holds DEVICE_RATE_BURST_POINTS and refills 1,000 points a second.
    const messages = (3 * DEVICE_RATE_BURST_POINTS) / MAX_POINTS_PER_MESSAGE;
    const statuses = await Promise.all(Array.from({ length: messages }, (_, m) => post(fastToken, message(m)).then((r) => r.status)));
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // Each 200 stored its points, each 429 none and was counted as refused.
    expect(await telemetryCount(server.ctx.db, fast.id, 'current')).toBe((messages - refused) * MAX_POINTS_PER_MESSAGE);
    expect(await rejectedCount(server.ctx.db, fast.id, 'rate_limited')).toBe(refused * MAX_POINTS_PER_MESSAGE);
  });

  it('429 past the per-token request rate (counted before the token is looked up), while another token goes on', async () => {
    // A token no device has is answered at once (401), so the burst lands inside one window even on a busy machine.
    const guessed = `${token.slice(0, -3)}zzz`;
    const statuses = await Promise.all(
      Array.from({ length: HTTP_DEVICE_RATE_LIMIT.max + 5 }, () => post(guessed, JSON.stringify({ current: 1 })).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((s) => s !== 429 && s !== 401)).toEqual([]);
    expect((await post(token, JSON.stringify({ current: 1 }))).status).toBe(200);
  });
});
