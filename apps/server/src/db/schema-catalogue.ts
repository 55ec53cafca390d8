/**
 * The catalogue (issues 2–3): product classes, products and their images, the hardware-module catalogue, projects
 * with their sensors and sensor display, devices and their authorisations.
 * Part of the one Drizzle schema (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import {
  type AnyPgColumn,
  bigint,
  boolean,
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
import type { TProductFunctions, TStatusGroup, TTelemetryValueType } from '@tessera/contracts';
import { RULE_RENOTIFY_DEFAULT_S } from '@tessera/contracts';
import { bytea, createdAt, epochMs } from './columns.js';
import { accounts, tenants } from './schema-accounts.js';

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
    ruleRenotifyS: integer('rule_renotify_s').notNull().default(RULE_RENOTIFY_DEFAULT_S),
    statusGroups: jsonb('status_groups').$type<TStatusGroup[]>().notNull().default([]),
    /** Sensor bus (spec §3 "Project sensor bus"): the interface its devices read sensors on, and the port. */
    sensorIface: text('sensor_iface', { enum: ['SPI', 'UART', 'I2C', 'I2S'] })
      .notNull()
      .default('I2C'),
    sensorPort: smallint('sensor_port').notNull().default(0),
    /** A gateway of this project may create a device it names that does not exist (docs/decisions/device-apis.md "Gateway"). */
    gatewayCreatesDevices: boolean('gateway_creates_devices').notNull().default(false),
    /** Ingest stores a key no sensor declares, typed by its first value (docs/decisions/telemetry.md "Undeclared keys"). */
    acceptsUndeclaredKeys: boolean('accepts_undeclared_keys').notNull().default(false),
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
    /** The type of the key's values (contracts TELEMETRY_VALUE_TYPES; docs/decisions/telemetry.md). */
    valueType: text('value_type').$type<TTelemetryValueType>().notNull().default('number'),
  },
  (t) => [uniqueIndex('project_sensors_project_key_uq').on(t.projectId, t.key)],
);

/**
 * Telemetry keys no sensor of the project declares that ingest accepted while the project accepted undeclared keys
 * (docs/decisions/telemetry.md "Undeclared keys"): typed by the first value (`value_count` its number of values when
 * numbers), offered for declaration until a sensor declares the key or the project discards it (`discarded_at`; the
 * key is then refused again). A project sensor of the same key takes precedence over the row.
 */
export const projectUndeclaredKeys = pgTable(
  'project_undeclared_keys',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    key: text('key').notNull(),
    valueType: text('value_type').$type<TTelemetryValueType>().notNull(),
    valueCount: smallint('value_count').notNull().default(1),
    /** When ingest received the key's first value (epoch ms). */
    firstSeenAt: epochMs('first_seen_at').notNull(),
    discardedAt: epochMs('discarded_at'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.key] })],
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
    /** When the server first received anything from the device (its activation); null until then. */
    firstSeenAt: epochMs('first_seen_at'),
    statusValue: bigint('status_value', { mode: 'number' }),
    statusTs: epochMs('status_ts'),
    /** May use ThingsBoard's gateway API (`v1/gateway/…`) when logged in with its access token. */
    isGateway: boolean('is_gateway').notNull().default(false),
    /** The gateway this device was last connected behind (null: never behind one). */
    gatewayId: integer('gateway_id').references((): AnyPgColumn => devices.id, { onDelete: 'set null' }),
    /** When its gateway last said it left, or dropped (epoch ms): offline from then until heard from again. */
    gatewayLeftAt: epochMs('gateway_left_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('devices_tangram_id_uq').on(t.tangramId),
    index('devices_gateway_idx').on(t.gatewayId),
    index('devices_project_name_idx').on(t.projectId, t.name),
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
