import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';

describe(`GET /healthz (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('answers 200 with db and broker up, without a token', async () => {
    const res = await server.api('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', db: 'ok', broker: 'ok', db_kind: TEST_DB_KIND });
    // Without DEVICE_HTTP_PORT there is no device HTTP port to report.
    expect(res.body).not.toHaveProperty('device_http');
  });

  it('answers an unknown API path with a 404 code, not a stack trace', async () => {
    const res = await server.api<{ code: string; message: string }>('GET', '/frontstage/v1/nope');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts/);
  });

  it('serves the OpenAPI document', async () => {
    const res = await server.api<{ openapi: string; paths: Record<string, unknown> }>('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toContain('/healthz');
  });
});
