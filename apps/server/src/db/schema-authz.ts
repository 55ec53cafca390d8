/**
 * Authorisation requests and project grants (docs/decisions/authorisation.md): a user's request for one device or a
 * whole project, kept with its answer for the history, and the project-wide grants allowed requests create (device
 * grants are `device_authz` rows). Part of the one Drizzle schema (schema.ts re-exports every schema file); times are
 * epoch ms in `bigint` columns.
 */
import type { TAuthzState, TAuthzTarget, TDeviceAuthzMethod } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, epochMs } from './columns.js';
import { accounts, tenants } from './schema-accounts.js';
import { devices, projects } from './schema-catalogue.js';
import { machines } from './schema-machines.js';

/**
 * One request: who asked (`accountId`, a user of the tenant), for what (`target` device: `deviceId` and its project;
 * project: every device of `projectId`; machine: `machineId` and every device bound to it), under which method of the project at the time, its state and the
 * owner's answer. At most one pending request per requester and target.
 */
export const authzRequests = pgTable(
  'authz_requests',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    target: text('target').$type<TAuthzTarget>().notNull(),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    /** The device's or the requested project's project; null for a machine request. */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    /** A machine request's machine. */
    machineId: integer('machine_id').references(() => machines.id, { onDelete: 'cascade' }),
    method: text('method').$type<TDeviceAuthzMethod>().notNull(),
    status: text('status').$type<TAuthzState>().notNull().default('pending'),
    message: text('message').notNull().default(''),
    note: text('note').notNull().default(''),
    decidedBy: integer('decided_by').references(() => accounts.id, { onDelete: 'set null' }),
    decidedAt: epochMs('decided_at'),
    revokedAt: epochMs('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('authz_requests_tenant_idx').on(t.tenantId, t.status, t.id),
    index('authz_requests_account_idx').on(t.accountId, t.id),
    uniqueIndex('authz_requests_one_pending_uq')
      .on(t.accountId, t.target, sql`coalesce(${t.projectId}, 0)`, sql`coalesce(${t.deviceId}, 0)`, sql`coalesce(${t.machineId}, 0)`)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** A user's grant of every device of a project (now and later), made by an allowed project request. */
export const projectAuthz = pgTable(
  'project_authz',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.accountId] }), index('project_authz_account_idx').on(t.accountId)],
);
