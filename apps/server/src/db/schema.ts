/**
 * The database schema (Drizzle, PostgreSQL 15 dialect; the same migrations run on PGlite and PostgreSQL).
 * Times are epoch milliseconds in `bigint` columns. Every tenant-owned row carries `tenant_id`.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ALERT_LEVELS, COMPARE_OPS, TELEMETRY_SLOTS } from '@tessera/contracts';
import type {
  TBlocklyProperty,
  TCompileError,
  TProductFunctions,
  TProjectRolePermission,
  TRuleProgram,
  TStatusGroup,
} from '@tessera/contracts';

const epochMs = (name: string) => bigint(name, { mode: 'number' });
const createdAt = () => epochMs('created_at').notNull().default(sql`(extract(epoch from now()) * 1000)::bigint`);

/** Platform-wide key/value settings (e.g. the generated JWT signing secret). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** A tenant: one vendor company and everything it owns. `vendor_class` is its Tangram ID part. */
export const tenants = pgTable('tenants', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  vendorClass: text('vendor_class').notNull().default('01'),
  createdAt: createdAt(),
});

/** A login: admin, vendor or user (§6). Users belong to the tenant of the vendor that invited them. */
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    level: text('level', { enum: ['admin', 'vendor', 'user'] }).notNull(),
    features: jsonb('features').$type<string[]>().notNull(),
    language: text('language', { enum: ['zh-TW', 'en'] })
      .notNull()
      .default('zh-TW'),
    mustSetPassword: boolean('must_set_password').notNull().default(false),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: epochMs('locked_until'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('accounts_email_uq').on(t.email)],
);

/** 6-digit codes for email verification and password reset; stored hashed. */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    purpose: text('purpose', { enum: ['register', 'reset'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: epochMs('expires_at').notNull(),
    usedAt: epochMs('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_email_idx').on(t.email, t.purpose)],
);

/** Rotating refresh tokens (SHA-256 of the token). A reused token revokes its whole family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: epochMs('expires_at').notNull(),
    usedAt: epochMs('used_at'),
    revokedAt: epochMs('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.familyId)],
);

/** API keys made on the profile page (SHA-256 of the key; `prefix` is what the list shows). */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    expiresAt: epochMs('expires_at'),
    revokedAt: epochMs('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash)],
);

/** Outgoing mail. Without SMTP_URL mail stays here (and in the log); with it a worker sends and marks it. */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'stored'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: epochMs('next_attempt_at').notNull().default(0),
    lastError: text('last_error'),
    sentAt: epochMs('sent_at'),
    /** The alert this mail notifies of (null for account mail); the console shows the alert's delivery state. */
    alertId: integer('alert_id'),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_emails_alert_idx').on(t.alertId)],
);

/** Product classes of a tenant. */
export const productClasses = pgTable(
  'product_classes',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('product_classes_tenant_name_uq').on(t.tenantId, t.name)],
);

/** A vendor's product. `modelNumber` (4 hex) is the product part of its devices' Tangram IDs. */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    model: text('model').notNull(),
    number: text('number').notNull(),
    modelNumber: text('model_number').notNull(),
    classId: integer('class_id').references(() => productClasses.id),
    description: text('description').notNull().default(''),
    imageUrl: text('image_url'),
    /** Product functions (ZProductFunctions); null = DEFAULT_PRODUCT_FUNCTIONS. */
    functions: jsonb('functions').$type<TProductFunctions>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('products_tenant_model_number_uq').on(t.tenantId, t.modelNumber), index('products_tenant_idx').on(t.tenantId)],
);

/** `bytea` as a Buffer on both drivers (PGlite answers a Uint8Array, node-postgres a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Uploaded images (image/upload), bytes kept in the database so replicas stay stateless. `id` is 128 random bits
 * (base64url), the unguessable part of the image URL; one row per distinct content (`sha256`) of a tenant.
 */
export const images = pgTable(
  'images',
  {
    id: text('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    sha256: text('sha256').notNull(),
    mime: text('mime').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('images_tenant_sha256_uq').on(t.tenantId, t.sha256)],
);

/** The hardware-module catalogue (template tangramProducts), platform-wide. */
export const tangramProducts = pgTable('tangram_products', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  modelNumber: text('model_number').notNull().unique(),
  description: text('description').notNull().default(''),
});

/** The sensors (telemetry keys) of a hardware module. */
export const templateSensors = pgTable(
  'template_sensors',
  {
    id: serial('id').primaryKey(),
    tangramProductId: integer('tangram_product_id')
      .notNull()
      .references(() => tangramProducts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    name: text('name').notNull(),
    unit: text('unit').notNull().default(''),
    valueCount: smallint('value_count').notNull().default(1),
  },
  (t) => [uniqueIndex('template_sensors_product_key_uq').on(t.tangramProductId, t.key)],
);

/** A project: a product plus a hardware module, with its status definition and rule type. */
export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    tangramProductId: integer('tangram_product_id')
      .notNull()
      .references(() => tangramProducts.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    deviceAuthzMethod: text('device_authz_method', { enum: ['all', 'ble', 'qrcode'] })
      .notNull()
      .default('all'),
    ruleType: text('rule_type', { enum: ['level', 'edge'] })
      .notNull()
      .default('level'),
    /** Level trigger: while a rule's condition holds, its notifications repeat at most once per this many seconds. */
    ruleRenotifyS: integer('rule_renotify_s').notNull().default(600),
    statusGroups: jsonb('status_groups').$type<TStatusGroup[]>().notNull().default([]),
    /** Sensor bus (spec §3 "Project sensor bus"): the interface its devices read sensors on, and the port. */
    sensorIface: text('sensor_iface', { enum: ['SPI', 'UART', 'I2C', 'I2S'] })
      .notNull()
      .default('I2C'),
    sensorPort: smallint('sensor_port').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('projects_tenant_idx').on(t.tenantId)],
);

/**
 * A project's sensors: the telemetry keys its devices may report (copied from the hardware module at project
 * creation; the configure tab of a later issue edits them). Ingest counts a point of any other key as unknown.
 */
export const projectSensors = pgTable(
  'project_sensors',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    name: text('name').notNull(),
    unit: text('unit').notNull().default(''),
    valueCount: smallint('value_count').notNull().default(1),
    address: smallint('address').notNull().default(0),
    savePeriodMs: integer('save_period_ms').notNull().default(1000),
    updatePeriodMs: integer('update_period_ms').notNull().default(1000),
    uploadPeriodMs: integer('upload_period_ms').notNull().default(1000),
    enabled: boolean('enabled').notNull().default(true),
    /** Points a device gathers before an upload (spec §9 "batch defaults 1000"). */
    batch: integer('batch').notNull().default(1000),
  },
  (t) => [uniqueIndex('project_sensors_project_key_uq').on(t.projectId, t.key)],
);

/**
 * Display settings of one project sensor (spec §7 `sensorDisplay`, docs/decisions/sensors.md): decimals shown,
 * the gauge's range and the chart colour. At most one row per sensor; deleted with the sensor.
 */
export const sensorDisplay = pgTable('sensor_display', {
  sensorId: integer('sensor_id')
    .primaryKey()
    .references(() => projectSensors.id, { onDelete: 'cascade' }),
  decimals: smallint('decimals').notNull().default(2),
  gaugeMin: doublePrecision('gauge_min'),
  gaugeMax: doublePrecision('gauge_max'),
  color: text('color').notNull().default('#1677ff'),
});

/** A registered device. `secretHash` is SHA-256 of its 256-bit MQTT secret. */
export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id),
    tangramId: text('tangram_id').notNull(),
    serialNumber: text('serial_number').notNull(),
    name: text('name').notNull(),
    nickname: text('nickname').notNull().default(''),
    secretHash: text('secret_hash').notNull(),
    lastSeenAt: epochMs('last_seen_at'),
    statusValue: bigint('status_value', { mode: 'number' }),
    statusTs: epochMs('status_ts'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('devices_tangram_id_uq').on(t.tangramId),
    index('devices_tenant_idx').on(t.tenantId),
    index('devices_project_idx').on(t.projectId),
  ],
);

/** Which user accounts may see which devices (§6: users watch the devices they are authorised for). */
export const deviceAuthz = pgTable(
  'device_authz',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.accountId] }), index('device_authz_account_idx').on(t.accountId)],
);

/**
 * Raw telemetry: one row per (device, key, device ts). The primary key absorbs a resent point (at-least-once).
 * `svcRecvTs` is when the server received it.
 */
export const telemetry = pgTable(
  'telemetry',
  {
    deviceId: integer('device_id').notNull(),
    key: text('key').notNull(),
    ts: epochMs('ts').notNull(),
    svcRecvTs: epochMs('svc_recv_ts').notNull(),
    v1: doublePrecision('v1'),
    v2: doublePrecision('v2'),
    v3: doublePrecision('v3'),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key, t.ts] })],
);

/** The latest point per device and key. */
export const telemetryLatest = pgTable(
  'telemetry_latest',
  {
    deviceId: integer('device_id').notNull(),
    key: text('key').notNull(),
    ts: epochMs('ts').notNull(),
    svcRecvTs: epochMs('svc_recv_ts').notNull(),
    v1: doublePrecision('v1'),
    v2: doublePrecision('v2'),
    v3: doublePrecision('v3'),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key] })],
);

/**
 * Rollups of telemetry per bucket (1 min and 1 h): count, min/max/sum of v1..v3, and first/last v1 by ts
 * (for `diff`). Maintained by ingest in the same transaction as the raw rows; a resent point is not counted
 * twice because only newly inserted raw rows feed it.
 */
export const telemetryRollup = pgTable(
  'telemetry_rollup',
  {
    deviceId: integer('device_id').notNull(),
    key: text('key').notNull(),
    bucketMs: integer('bucket_ms').notNull(),
    bucketTs: epochMs('bucket_ts').notNull(),
    count: integer('count').notNull(),
    v1Min: doublePrecision('v1_min'),
    v1Max: doublePrecision('v1_max'),
    v1Sum: doublePrecision('v1_sum'),
    v2Min: doublePrecision('v2_min'),
    v2Max: doublePrecision('v2_max'),
    v2Sum: doublePrecision('v2_sum'),
    v3Min: doublePrecision('v3_min'),
    v3Max: doublePrecision('v3_max'),
    v3Sum: doublePrecision('v3_sum'),
    firstTs: epochMs('first_ts').notNull(),
    firstV1: doublePrecision('first_v1'),
    lastTs: epochMs('last_ts').notNull(),
    lastV1: doublePrecision('last_v1'),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key, t.bucketMs, t.bucketTs] })],
);

/** Status words as received (40-bit value in a bigint). */
export const deviceStatus = pgTable(
  'device_status',
  {
    deviceId: integer('device_id').notNull(),
    ts: epochMs('ts').notNull(),
    svcRecvTs: epochMs('svc_recv_ts').notNull(),
    value: bigint('value', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.ts] })],
);

/** Points rejected by ingest per device and reason (malformed, unknown_key, rate_limited). */
export const deviceIngestStats = pgTable(
  'device_ingest_stats',
  {
    deviceId: integer('device_id').notNull(),
    reason: text('reason').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
    lastAt: epochMs('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.reason] })],
);

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
 * Project roles (spec §6 "project roles (component makers)"; docs/decisions/project-roles.md): a named set of
 * permissions (ZProjectRoleInput, at least one) over devices of one project, held by user accounts of the tenant.
 * A role with members is in use and cannot be deleted. The name is unique per project, ignoring case.
 */
export const projectRoles = pgTable(
  'project_roles',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    permissions: jsonb('permissions').$type<TProjectRolePermission[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('project_roles_project_name_uq').on(t.projectId, sql`lower(${t.name})`),
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
 * rules for one device, as a mobile app sets them. Evaluated by the rule engine of a later issue (shape in
 * docs/decisions/device-control.md).
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
    op: text('op', { enum: COMPARE_OPS }).notNull(),
    threshold: doublePrecision('threshold').notNull(),
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
    op: text('op', { enum: COMPARE_OPS }).notNull(),
    threshold: doublePrecision('threshold').notNull(),
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

export * from './schema-alerts.js';
export * from './schema-notify.js';
export * from './schema-line.js';
