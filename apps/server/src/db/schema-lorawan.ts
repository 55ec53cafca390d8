/**
 * LoRaWAN network-server uplinks (docs/decisions/lorawan.md): each device's DevEUI, a project's integrations (the
 * webhook a ChirpStack or The Things Stack application POSTs to, its hashed secret, the field mapping, counters) and
 * the last payloads each integration received. Part of the one Drizzle schema: schema.ts re-exports this file.
 */
import type { TLorawanMappingEntry } from '@tessera/contracts';
import { LORAWAN_MQTT_STATES, LORAWAN_NETWORK_SERVERS, LORAWAN_OUTCOMES, LORAWAN_TRANSPORTS } from '@tessera/contracts';
import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, epochMs, updatedAt } from './columns.js';
import { tenants } from './schema-accounts.js';
import { devices, projects } from './schema-catalogue.js';

/**
 * A device's DevEUI (16 upper-case hex digits), at most one per device and unique within the tenant, so an uplink
 * names one device of the tenant. Kept beside the device as its access token is; deleting the device deletes it.
 */
export const deviceLorawan = pgTable(
  'device_lorawan',
  {
    deviceId: integer('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    devEui: text('dev_eui').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('device_lorawan_tenant_dev_eui_uq').on(t.tenantId, t.devEui)],
);

/** A project's integration with one network-server application: where it POSTs, how it proves itself, what maps where. */
export const lorawanIntegrations = pgTable(
  'lorawan_integrations',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    networkServer: text('network_server', { enum: LORAWAN_NETWORK_SERVERS }).notNull(),
    /** SHA-256 (hex) of the secret: it is only ever compared, so it is not kept in clear. */
    secretHash: text('secret_hash').notNull(),
    /** The last four characters, to show it masked. */
    secretHint: text('secret_hint').notNull(),
    mapping: jsonb('mapping').$type<TLorawanMappingEntry[]>().notNull().default([]),
    uplinksStored: bigint('uplinks_stored', { mode: 'number' }).notNull().default(0),
    uplinksRefused: bigint('uplinks_refused', { mode: 'number' }).notNull().default(0),
    eventsIgnored: bigint('events_ignored', { mode: 'number' }).notNull().default(0),
    lastReceivedAt: epochMs('last_received_at'),
    /** `webhook`: the network server POSTs; `mqtt`: Tessera subscribes to ChirpStack's broker (the columns below). */
    transport: text('transport', { enum: LORAWAN_TRANSPORTS }).notNull().default('webhook'),
    mqttUrl: text('mqtt_url'),
    mqttUsername: text('mqtt_username'),
    /** The broker password sealed by core/secret-box.ts (context `lorawan:{projectId}:mqtt_password`), or null. */
    mqttPasswordSealed: text('mqtt_password_sealed'),
    mqttPasswordHint: text('mqtt_password_hint'),
    mqttApplicationId: text('mqtt_application_id'),
    /** The subscription's state as a replica last wrote it, when, and the last connection error. */
    mqttState: text('mqtt_state', { enum: LORAWAN_MQTT_STATES }),
    mqttStateAt: epochMs('mqtt_state_at'),
    mqttError: text('mqtt_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('lorawan_integrations_project_idx').on(t.projectId)],
);

/** One payload an integration received, with what was answered; the newest LORAWAN_LOG_SIZE are kept per integration. */
export const lorawanUplinkLog = pgTable(
  'lorawan_uplink_log',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => lorawanIntegrations.id, { onDelete: 'cascade' }),
    receivedAt: epochMs('received_at').notNull(),
    event: text('event').notNull(),
    devEui: text('dev_eui'),
    tangramId: text('tangram_id'),
    outcome: text('outcome', { enum: LORAWAN_OUTCOMES }).notNull(),
    reason: text('reason'),
    detail: text('detail').notNull().default(''),
    points: integer('points').notNull().default(0),
    status: integer('status').notNull(),
    body: text('body').notNull(),
    truncated: boolean('truncated').notNull().default(false),
  },
  (t) => [index('lorawan_uplink_log_integration_idx').on(t.integrationId, t.id)],
);
