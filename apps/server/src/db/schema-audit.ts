/**
 * The audit log (docs/decisions/audit-log.md): one row per change a person or an API key made, and per login and
 * act-as. Append-only: a trigger (migration 0021) refuses UPDATE and TRUNCATE, and DELETE of any row not older than
 * the cutoff the retention purge sets for its own transaction (`tessera.audit_purge_before`). No foreign keys: an
 * entry outlives the account, tenant or entity it names.
 * Part of the one Drizzle schema (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import type { TAuditChanges } from '@tessera/contracts';
import { bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { epochMs } from './columns.js';

/** One audit entry. `changes` holds only the changed fields, each `{before, after}`, secrets masked. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** When the change was answered, epoch ms. */
    at: epochMs('at').notNull(),
    /** The tenant the entity belongs to; null for platform-level entries (a login with an unknown e-mail). */
    tenantId: integer('tenant_id'),
    /** Who: the account (null for a failed login with an unknown e-mail) and its e-mail at the time. */
    actorAccountId: integer('actor_account_id'),
    actorEmail: text('actor_email'),
    /** How the actor authenticated: `jwt`, `api_key`, or null before a login. */
    actorVia: text('actor_via'),
    /** The platform admin behind an act-as session, and its e-mail at the time; null otherwise. */
    actingAdminId: integer('acting_admin_id'),
    actingAdminEmail: text('acting_admin_email'),
    /** The request's client address as Fastify sees it (TRUST_PROXY honoured). */
    ip: text('ip'),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    action: text('action').notNull(),
    changes: jsonb('changes').$type<TAuditChanges>().notNull(),
    /** The route template (`PUT /frontstage/v1/products/:id`) and the request id. */
    route: text('route'),
    requestId: text('request_id'),
  },
  (t) => [index('audit_log_tenant_at_idx').on(t.tenantId, t.at, t.id), index('audit_log_at_idx').on(t.at, t.id)],
);
