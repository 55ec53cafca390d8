/**
 * The OpenAPI 3.1 document at /openapi.json (and /docs): zod route schemas turned into JSON Schema
 * (fastify-type-provider-zod), then completed here — every operation gets its summary (the route's own, else the
 * catalogue's), an operationId, its group (api-sections.ts, spec §7), its error responses with their codes (spec §8),
 * and examples of its request and response bodies generated from their schemas (openapi-sampler).
 */
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { sample } from 'openapi-sampler';
import { requireAuth } from '../../core/principal.js';
import { sectionOfTag } from './api-sections.js';
import { derivedErrors, errorResponse, mergeErrors, ZERROR_BODY_SCHEMA } from './error-responses.js';
import { operationDoc } from './operations.js';

type TJson = Record<string, unknown>;
interface TOperation {
  summary?: string;
  description?: string;
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { in: string }[];
  requestBody?: { content?: Record<string, TJson> };
  responses?: Record<string, TJson>;
}

/** What the route itself tells, noted while the routes are transformed, read when the document is completed. */
interface TRouteFacts {
  /** Any logged-in account may call it (its only guard is requireAuth): no 403 from the guard. */
  isOpenToAnyAccount: boolean;
  /** It carries its own rate limit (@fastify/rate-limit config): it may answer 429. */
  isRateLimited: boolean;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** `/a/:id/b` → `/a/{id}/b` (Fastify's path parameters as OpenAPI path templates). */
export const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** `GET /frontstage/v1/devices/{tangramId}` → `getFrontstageV1DevicesByTangramId`: unique as method + path are. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') ? `by-${segment.slice(1, -1)}` : segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean));
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/**
 * The pair of @fastify/swagger hooks that build the document: `transform` for each route, `transformObject` once.
 * Made per app, since the route facts noted by the first are read by the second.
 */
export function createApiDocumentHooks(): { transform: SwaggerTransform; transformObject: SwaggerTransformObject } {
  const routeFacts = new Map<string, TRouteFacts>();

  const transform: SwaggerTransform = (input) => {
    const out = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
    const schema = out.schema as TJson;
    if (schema.hide) return out;
    const methods = [input.route.method].flat().map((m) => String(m).toUpperCase());
    const preHandlers = [input.route.preHandler].flat().filter(Boolean);
    const facts: TRouteFacts = {
      isOpenToAnyAccount: preHandlers.length === 1 && preHandlers[0] === requireAuth,
      isRateLimited: Boolean((input.route.config as { rateLimit?: unknown } | undefined)?.rateLimit),
    };
    for (const method of methods) {
      const key = `${method} ${openapiPath(input.url)}`;
      routeFacts.set(key, facts);
      const doc = operationDoc(key);
      if (doc && schema.summary === undefined) schema.summary = doc.summary;
      if (doc?.description && schema.description === undefined) schema.description = doc.description;
    }
    return out;
  };

  const transformObject: SwaggerTransformObject = (input) => {
    const document = jsonSchemaTransformObject(input as Parameters<typeof jsonSchemaTransformObject>[0]) as TJson & {
      paths?: Record<string, Record<string, TOperation>>;
      components?: TJson & { schemas?: TJson };
    };
    document.components = { ...document.components, schemas: { ...document.components?.schemas, ErrorBody: ZERROR_BODY_SCHEMA } };
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (op) completeOperation(op, method.toUpperCase(), path, routeFacts.get(`${method.toUpperCase()} ${path}`), document);
      }
    }
    return document;
  };

  return { transform, transformObject };
}

function completeOperation(op: TOperation, method: string, path: string, facts: TRouteFacts | undefined, document: object): void {
  op.operationId ??= operationIdOf(method, path);
  op.tags = (op.tags ?? []).map((tag) => sectionOfTag(tag)?.name ?? tag);
  const isPublic = Array.isArray(op.security) && op.security.length === 0;
  const errors = mergeErrors(
    derivedErrors({
      hasInput: Boolean(op.requestBody) || (op.parameters?.length ?? 0) > 0,
      hasBody: Boolean(op.requestBody),
      hasPathParams: (op.parameters ?? []).some((p) => p.in === 'path'),
      isPublic,
      mayForbid: !isPublic && !facts?.isOpenToAnyAccount,
      isRateLimited: facts?.isRateLimited ?? false,
    }),
    operationDoc(`${method} ${path}`)?.errors ?? {},
  );
  op.responses ??= {};
  for (const [status, codes] of Object.entries(errors)) {
    if (!op.responses[status]) op.responses[status] = errorResponse(Number(status), codes ?? []);
  }
  addExample(op.requestBody?.content?.['application/json'], document);
  for (const [status, response] of Object.entries(op.responses)) {
    if (status.startsWith('2')) addExample((response.content as Record<string, TJson> | undefined)?.['application/json'], document);
  }
}

/** Sets `example` on a JSON media type from its schema, unless it has one. */
function addExample(media: TJson | undefined, document: object): void {
  if (!media?.schema || media.example !== undefined) return;
  media.example = sample(media.schema as Parameters<typeof sample>[0], { skipNonRequired: false, quiet: true }, document);
}
