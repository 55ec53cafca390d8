/**
 * Project configuration and device control: notification emails, project roles, custom pages, device
 * commands, app rules, push switch, simple rules, Blockly programs and setting.
 * Part of the one Drizzle schema (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  ALERT_LEVELS,
  SIMPLE_RULE_OPS,
  TELEMETRY_SLOTS,
  type TBlocklyProperty,
  type TCompileError,
  type TProjectRolePermission,
  type TRoleKind,
  type TRuleProgram,
  type TRuleValue,
} from '@tessera/contracts';
import { bytea, createdAt, epochMs } from './columns.js';
import { accounts, tenants } from './schema-accounts.js';
import { devices, projects } from './schema-catalogue.js';

/**
 * Project settings (notification tab, spec §3 "email-notification list"): the addresses that receive a project's
 * notification mail, lower-cased and unique, at most NOTIFICATION_EMAILS_MAX. One row per project; a PUT
 * replaces the whole list in one statement.
 */
export const projectNotificationEmails = pgTable('project_notification_emails', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  emails: jsonb('emails').$type<string[]>().notNull().default([]),
  updatedAt: epochMs('updated_at').notNull(),
});

/**
 * Roles of every kind (spec §6 "Device roles (regular users), project roles (component makers) and machine roles";
 * docs/decisions/roles.md; the table keeps the name it had when project roles were the only kind): a named set of
 * permissions (at least one) held by user accounts of the tenant, over devices of one project (`project` and
 * `device` roles: `project_role_devices`) or over machines (`machine` roles: `project_role_machines`). A role with
 * members is in use and cannot be deleted. The name is unique per tenant, kind and project, ignoring case.
 */
export const projectRoles = pgTable(
  'project_roles',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** `project` and `device` roles: the project whose devices they hold; null for `machine` roles. */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<TRoleKind>().notNull().default('project'),
    name: text('name').notNull(),
    permissions: jsonb('permissions').$type<TProjectRolePermission[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('roles_kind_scope_name_uq').on(t.tenantId, t.kind, sql`coalesce(${t.projectId}, 0)`, sql`lower(${t.name})`),
    index('project_roles_tenant_idx').on(t.tenantId),
  ],
);

/** The devices of a project role (each a device of the role's project). Members see these (devices/access.ts). */
export const projectRoleDevices = pgTable(
  'project_role_devices',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => projectRoles.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.deviceId] }), index('project_role_devices_device_idx').on(t.deviceId)],
);

/** The members of a project role: user accounts of the role's tenant. */
export const projectRoleMembers = pgTable(
  'project_role_members',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => projectRoles.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.accountId] }), index('project_role_members_account_idx').on(t.accountId)],
);

/**
 * A project's custom page (spec §2 tab custom-page, §3 "custom page (HTML file)", §7): one vendor-uploaded UTF-8
 * HTML file per project, kept in the database so replicas stay stateless, served sandboxed at
 * /pages/custom-page/{projectId} (docs/decisions/custom-pages.md). `sha256` is the page's revision.
 */
export const customPages = pgTable('custom_pages', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  tenantId: integer('tenant_id')
    .notNull()
    .references(() => tenants.id),
  title: text('title').notNull(),
  html: bytea('html').notNull(),
  sha256: text('sha256').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  updatedBy: integer('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
  updatedAt: epochMs('updated_at').notNull(),
  createdAt: createdAt(),
});

/**
 * Remote-control audit (spec §7 remoteControl; docs/decisions/device-control.md): one row per command the console
 * sent, keyed by its request id (the MQTT `{reqId}`), with who, when, what, how it ended and the round trip.
 * `accountEmail` is kept as sent, so the log still reads after the account is gone.
 */
export const deviceCommands = pgTable(
  'device_commands',
  {
    reqId: text('req_id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    accountEmail: text('account_email').notNull(),
    name: text('name').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    outcome: text('outcome', { enum: ['ok', 'device_error', 'timeout', 'offline'] }).notNull(),
    error: text('error'),
    latencyMs: integer('latency_ms'),
    createdAt: epochMs('created_at').notNull(),
  },
  (t) => [index('device_commands_device_idx').on(t.deviceId, t.createdAt)],
);

/**
 * App rules (device detail tab app-rules, spec §7 `userRules`): a user's own "notify me when key.slot op threshold"
 * rules for one device, as a mobile app sets them — or, on a key whose values are not numbers, "when key equals /
 * contains value, or changed". Evaluated by the rule engine (evaluation/app-rules.ts; docs/decisions/device-control.md).
 */
export const deviceUserRules = pgTable(
  'device_user_rules',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    key: text('key').notNull(),
    slot: text('slot', { enum: TELEMETRY_SLOTS }).notNull(),
    /** A comparison for a number key, a value test for any other (docs/decisions/rules.md "Keys that are not numbers"). */
    op: text('op', { enum: SIMPLE_RULE_OPS }).notNull(),
    /** A comparison's threshold; null for a value test. */
    threshold: doublePrecision('threshold'),
    /** What `equals` / `contains` compare with; null for a comparison and `changed`. */
    value: jsonb('value').$type<TRuleValue>(),
    level: text('level', { enum: ALERT_LEVELS }).notNull(),
    enabled: boolean('enabled').notNull(),
    cooldownS: integer('cooldown_s').notNull(),
    createdAt: createdAt(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [index('device_user_rules_device_account_idx').on(t.deviceId, t.accountId)],
);

/**
 * The push-notification switch of an account for a device (spec §7 `PUT devices/configFCMStatus`). Only the
 * preference: delivery through FCM comes with the mobile app. No row = off.
 */
export const devicePushSettings = pgTable(
  'device_push_settings',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.accountId] })],
);

/**
 * Simple rules of a project (spec §7 rules "simples"; docs/decisions/rules.md): "when `key`.`slot` `op` `threshold`
 * (held `durationS` seconds), raise an alert of `level` and notify". The name is unique per project.
 */
export const projectSimpleRules = pgTable(
  'project_simple_rules',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull(),
    key: text('key').notNull(),
    slot: text('slot', { enum: TELEMETRY_SLOTS }).notNull(),
    op: text('op', { enum: SIMPLE_RULE_OPS }).notNull(),
    /** A comparison's threshold; null for a value test of a non-numeric key (docs/decisions/rules.md). */
    threshold: doublePrecision('threshold'),
    /** What `equals` / `contains` compare with; null for a comparison and for `changed`. */
    value: jsonb('value').$type<TRuleValue>(),
    durationS: integer('duration_s').notNull(),
    level: text('level', { enum: ALERT_LEVELS }).notNull(),
    message: text('message').notNull(),
    notifyEmail: boolean('notify_email').notNull(),
    notifyLine: boolean('notify_line').notNull(),
    createdAt: createdAt(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [uniqueIndex('project_simple_rules_name_uq').on(t.projectId, t.name)],
);

/**
 * Blockly programs of a project (spec §7 rules "blocklys"): the workspace JSON as the console saved it, and what its
 * last compile gave: the rule program (ZRuleProgram) or null with the errors. The name is unique per project.
 */
export const projectBlocklyPrograms = pgTable(
  'project_blockly_programs',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull(),
    workspace: jsonb('workspace').$type<Record<string, unknown>>().notNull(),
    program: jsonb('program').$type<TRuleProgram>(),
    errors: jsonb('errors').$type<TCompileError[]>().notNull(),
    compiledAt: epochMs('compiled_at').notNull(),
    createdAt: createdAt(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [uniqueIndex('project_blockly_programs_name_uq').on(t.projectId, t.name)],
);

/** A project's blockly setting (spec §3 "Blockly setting: properties … each with a numeric value"); no row = none. */
export const projectBlocklySettings = pgTable('project_blockly_settings', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  properties: jsonb('properties').$type<TBlocklyProperty[]>().notNull(),
  updatedAt: epochMs('updated_at').notNull(),
});
