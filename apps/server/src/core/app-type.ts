/**
 * The Fastify instance every module registers its routes on, typed with the zod type provider (app/app.ts builds it).
 * A type only, so that modules depend on the floor (`core/`) and never on the composition root.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The app with zod schemas as its type provider. */
export type TApp = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;
