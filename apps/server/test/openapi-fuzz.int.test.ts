/**
 * Every route of the OpenAPI document, fed generated bad input (docs/decisions/api-input.md): path ids at and past
 * 2^31, 2^53 − 1, hex and exponent forms, NUL bytes, long and non-ASCII strings; query values alike; JSON bodies of
 * wrong types, huge numbers, NUL in strings, deep nesting and extra fields — as the vendor, a user and no one. No
 * input may answer 5xx. Deterministic (fixed seed) and bounded; routes come from /openapi.json, so new ones are
 * covered as they are added. Every status a route answers must be among the responses its operation documents.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB_KIND } from './helpers.js';
import { startTwoTenants, type TTwoTenants } from './tenants.js';

/** How many generated inputs each route gets per caller (CI); FUZZ_RUNS raises it for a deeper local run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

interface TSchema {
  type?: string | string[];
  properties?: Record<string, TSchema>;
  items?: TSchema;
  enum?: unknown[];
  anyOf?: TSchema[];
  oneOf?: TSchema[];
}
interface TOperation {
  parameters?: { name: string; in: 'path' | 'query' | 'header'; schema?: TSchema }[];
  requestBody?: { content?: Record<string, { schema?: TSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}
interface TRoute {
  method: string;
  path: string;
  op: TOperation;
}

/** Values that have broken servers: integer edges, number forms the database reads differently, NUL, sizes. */
const BAD_TEXT = [
  '2147483648',
  '2147483647',
  '9007199254740991',
  '-1',
  '0',
  '0x10',
  '1e3',
  ' 7',
  '7.0',
  '\u0000',
  'a\u0000b',
  'x'.repeat(5_000),
  '中文裝置',
  '%',
  '../../etc/passwd',
  '1',
];
const badText = fc.oneof(fc.constantFrom(...BAD_TEXT), fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 10 }));
const deep = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};
const badScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(2 ** 31, 2 ** 53 - 1, -1, 0, 1.5, 1e308, -1e308, 8.64e15 + 1, null, true, '', 'x\u0000', {}, []),
  badText,
  fc.constant(deep(200)),
);

/** A value that follows `schema` loosely (its type, its first enum value), or a bad one. */
function valueFor(schema: TSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = schema?.anyOf?.[0] ?? schema?.oneOf?.[0] ?? schema ?? {};
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  const plausible: fc.Arbitrary<unknown> = s.enum
    ? fc.constantFrom(...s.enum)
    : type === 'object' && s.properties && depth < 3
      ? bodyFor(s, depth + 1)
      : type === 'array'
        ? fc.array(valueFor(s.items, depth + 1), { maxLength: 3 })
        : type === 'integer' || type === 'number'
          ? fc.oneof(fc.integer({ min: -3, max: 5 }), fc.constantFrom(2 ** 31, 2 ** 53 - 1))
          : type === 'boolean'
            ? fc.boolean()
            : badText;
  return fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 2, arbitrary: badScalar });
}

/** An object with some of `schema`'s properties (each plausible or bad) and sometimes an extra one. */
function bodyFor(schema: TSchema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const shape = Object.fromEntries(props.map(([k, v]) => [k, valueFor(v, depth)]));
  return fc
    .tuple(fc.record(shape, { requiredKeys: [] }), fc.option(fc.tuple(fc.string({ maxLength: 8 }), badScalar)))
    .map(([body, extra]) => (extra ? { ...body, [extra[0]]: extra[1] } : body));
}

/** The `code` of an error body, or '' when the body is not one. */
function errorCodeOf(body: string): string {
  try {
    return String((JSON.parse(body) as { code?: unknown }).code ?? '');
  } catch {
    return '';
  }
}

function routesOf(doc: { paths: Record<string, Record<string, TOperation>> }): TRoute[] {
  const routes: TRoute[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      const content = op.requestBody?.content ?? {};
      // Event streams answer forever; uploads are multipart (covered by their own tests).
      const streams = Object.values(op.responses ?? {}).some((r) => Object.keys(r.content ?? {}).includes('text/event-stream'));
      if (streams || 'multipart/form-data' in content) continue;
      routes.push({ method: method.toUpperCase(), path, op });
    }
  }
  return routes;
}

/** The request for `route` with generated parts. */
function requestFor(route: TRoute): fc.Arbitrary<InjectOptions> {
  const params = (route.op.parameters ?? []).filter((p) => p.in === 'path');
  const query = (route.op.parameters ?? []).filter((p) => p.in === 'query');
  const bodySchema = route.op.requestBody?.content?.['application/json']?.schema;
  const pathArb = fc.tuple(...params.map(() => badText));
  const queryArb = fc.tuple(...query.map((p) => fc.option(valueFor(p.schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))))));
  const bodyArb = bodySchema
    ? fc.oneof({ weight: 4, arbitrary: bodyFor(bodySchema) }, { weight: 1, arbitrary: badScalar })
    : fc.constant(undefined);
  return fc.tuple(pathArb, queryArb, bodyArb).map(([pathValues, queryValues, body]) => {
    let url = route.path;
    params.forEach((p, i) => {
      url = url.replace(`{${p.name}}`, encodeURIComponent(pathValues[i] || '1'));
    });
    const search = new URLSearchParams();
    query.forEach((p, i) => {
      const v = queryValues[i];
      if (v !== null) search.set(p.name, v);
    });
    const qs = search.toString();
    return {
      method: route.method as InjectOptions['method'],
      url: qs ? `${url}?${qs}` : url,
      ...(body !== undefined ? { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    };
  });
}

describe(`every OpenAPI route under generated bad input (${TEST_DB_KIND})`, () => {
  let cast: TTwoTenants;
  let routes: TRoute[] = [];
  beforeAll(async () => {
    cast = await startTwoTenants();
    const doc = await cast.server.app.inject({ method: 'GET', url: '/openapi.json' });
    routes = routesOf(doc.json());
  });
  afterAll(() => cast?.server.stop());

  it('reads a document with the API in it', () => {
    expect(routes.length).toBeGreaterThan(100);
  });

  for (const caller of ['vendor', 'user', 'anonymous'] as const) {
    it(`never answers 5xx, as ${caller}`, { timeout: 240_000 }, async () => {
      const token = caller === 'anonymous' ? null : cast[caller].token;
      const failures: string[] = [];
      // Each status a route answered must be one its OpenAPI operation documents (app/openapi/error-responses.ts).
      const undocumented = new Set<string>();
      for (const route of routes) {
        const result = await fc.check(
          fc.asyncProperty(requestFor(route), async (req) => {
            const res = await cast.server.app.inject({
              ...req,
              headers: { ...(req.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
            });
            if (res.statusCode >= 500) throw new Error(`${res.statusCode} ${res.body.slice(0, 200)}`);
            if (!(String(res.statusCode) in (route.op.responses ?? {}))) {
              undocumented.add(`${route.method} ${route.path} answered ${res.statusCode} ${errorCodeOf(res.body)}`);
            }
            expect(res.body).not.toMatch(/\n\s+at .+:\d+:\d+/); // never a stack trace
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
        if (result.failed) {
          const req = result.counterexample?.[0] as InjectOptions | undefined;
          failures.push(
            `${route.method} ${route.path}: ${req?.method} ${req?.url} ${String(req?.payload ?? '').slice(0, 200)} → ${String(result.errorInstance).slice(0, 300)}`,
          );
        }
      }
      expect(failures).toEqual([]);
      expect([...undocumented]).toEqual([]);
    });
  }

  it('answers a body nested 100,000 deep and one over the size limit with 4xx', async () => {
    const headers = { authorization: `Bearer ${cast.vendor.token}`, 'content-type': 'application/json' };
    const posts = routes.filter((r) => r.method === 'POST' || r.method === 'PUT').slice(0, 10);
    for (const route of posts) {
      const url = route.path.replace(/\{[^}]+\}/g, '1');
      const nested = await cast.server.app.inject({
        method: route.method as 'POST',
        url,
        headers,
        payload: `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      });
      expect(nested.statusCode, `${route.method} ${url} deep`).toBeLessThan(500);
      const huge = await cast.server.app.inject({
        method: route.method as 'POST',
        url,
        headers,
        payload: `{"name":"${'x'.repeat(1_100_000)}"}`,
      });
      // 413, or 429 where a per-IP limit of that route answers first.
      expect([413, 429], `${route.method} ${url} huge`).toContain(huge.statusCode);
    }
  });
});
