/**
 * The OpenAPI document as a client reads it (/openapi.json): every operation summarised, grouped by its spec §7
 * section, with its error responses and examples; no catalogue entry for a route that is gone; and Redocly's
 * recommended lint rules find nothing — no error and no warning.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../../test/helpers.js';
import { API_SECTIONS } from './api-sections.js';
import { OPERATION_DOCS } from './operations.js';

interface TOperation {
  summary?: string;
  operationId?: string;
  tags?: string[];
  responses?: Record<string, { content?: Record<string, { example?: unknown; schema?: unknown }> }>;
}
type TDocument = { paths: Record<string, Record<string, TOperation>> };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('the OpenAPI document', () => {
  let server: TTestServer;
  let document: TDocument;
  let operations: { key: string; op: TOperation }[];
  beforeAll(async () => {
    server = await startTestServer();
    document = (await server.api<TDocument>('GET', '/openapi.json')).body;
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );
  });
  afterAll(() => server?.stop());

  it('gives every operation a summary, an operationId and one group of spec §7', () => {
    const groups = new Set(API_SECTIONS.map((s) => s.name));
    expect(operations.length).toBeGreaterThan(200);
    const lacking = operations.filter(
      ({ op }) => !op.summary?.trim() || !op.operationId || op.tags?.length !== 1 || !groups.has(op.tags[0]!),
    );
    expect(lacking.map((o) => `${o.key} ${JSON.stringify({ summary: o.op.summary, tags: o.op.tags })}`)).toEqual([]);
  });

  it('documents the error responses of each operation with the error body and its codes', () => {
    const secured = operations.filter(({ op }) => '401' in (op.responses ?? {}));
    expect(secured.length).toBeGreaterThan(200);
    const login = document.paths['/authorization/v1/login']!.post!;
    expect(Object.keys(login.responses ?? {})).toEqual(expect.arrayContaining(['400', '401', '423', '429']));
    expect(login.responses?.['401']).not.toHaveProperty('content.application/json.examples.AUTH_REQUIRED');
    expect(login.responses?.['401']).toHaveProperty('content.application/json.examples.AUTH_WRONG_CREDENTIALS');
    const device = document.paths['/frontstage/v1/devices/{tangramId}']!.get!;
    expect(device.responses?.['404']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    const withoutErrors = operations.filter(({ op }) => !Object.keys(op.responses ?? {}).some((s) => s.startsWith('4')));
    expect(withoutErrors.map((o) => o.key)).toEqual(['GET /healthz']);
  });

  it('shows an example of each JSON success body', () => {
    const missing = operations.flatMap(({ key, op }) =>
      Object.entries(op.responses ?? {})
        .filter(
          ([status, r]) => status.startsWith('2') && r.content?.['application/json'] && r.content['application/json'].example === undefined,
        )
        .map(([status]) => `${key} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  it('has no catalogue entry for an operation the server does not have', () => {
    const keys = new Set(operations.map((o) => o.key));
    expect(Object.keys(OPERATION_DOCS).filter((k) => !keys.has(k))).toEqual([]);
  });

  it("passes Redocly's recommended rules without an error or a warning", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = (await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config })).filter(
      // /healthz takes no input and needs no login: it can fail only with 503, so it has no 4XX response to document.
      (p) => !(p.ruleId === 'operation-4xx-response' && p.location[0]?.pointer === '#/paths/~1healthz/get/responses'),
    );
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });
});
